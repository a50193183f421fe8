# breakdown-reduction-sum-n_16777216.gp - a chart of gpubound, drawn by: gnuplot breakdown-reduction-sum-n_16777216.gp (in this directory)
reset
$bars << EOD
"block_size_x=32 elems_per_thread=1" 0.00283905557 0.0122949074 1.105771123
"block_size_x=32 elems_per_thread=2" 0.00283905557 0.0122949074 0.5528855613
"block_size_x=32 elems_per_thread=4" 0.00283905557 0.0122949074 0.2764427807
"block_size_x=32 elems_per_thread=8" 0.00283905557 0.0122949074 0.1382213903
"block_size_x=32 elems_per_thread=16" 0.00283905557 0.0122949074 0.06911069517
"block_size_x=64 elems_per_thread=1" 0.001419527785 0.0122949074 0.5528855613
"block_size_x=64 elems_per_thread=2" 0.001419527785 0.0122949074 0.2764427807
"block_size_x=64 elems_per_thread=4" 0.001419527785 0.0122949074 0.1382213903
"block_size_x=64 elems_per_thread=8" 0.001419527785 0.0122949074 0.06911069517
"block_size_x=64 elems_per_thread=16" 0.001419527785 0.0122949074 0.03455534758
"block_size_x=128 elems_per_thread=1" 0.001419527785 0.0122949074 0.2764427807
"block_size_x=128 elems_per_thread=2" 0.001419527785 0.0122949074 0.1382213903
"block_size_x=128 elems_per_thread=4" 0.001419527785 0.0122949074 0.06911069517
"block_size_x=128 elems_per_thread=8" 0.001419527785 0.0122949074 0.03455534758
"block_size_x=128 elems_per_thread=16" 0.001419527785 0.0122949074 0.01727767379
"block_size_x=256 elems_per_thread=1" 0.001419527785 0.0122949074 0.1382213903
"block_size_x=256 elems_per_thread=2" 0.001419527785 0.0122949074 0.06911069517
"block_size_x=256 elems_per_thread=4" 0.001419527785 0.0122949074 0.03455534758
"block_size_x=256 elems_per_thread=8" 0.001419527785 0.0122949074 0.01727767379
"block_size_x=256 elems_per_thread=16" 0.001419527785 0.0122949074 0.008638836896
"block_size_x=512 elems_per_thread=1" 0.001419527785 0.0122949074 0.06911069517
"block_size_x=512 elems_per_thread=2" 0.001419527785 0.0122949074 0.03455534758
"block_size_x=512 elems_per_thread=4" 0.001419527785 0.0122949074 0.01727767379
"block_size_x=512 elems_per_thread=8" 0.001419527785 0.0122949074 0.008638836896
"block_size_x=512 elems_per_thread=16" 0.001419527785 0.0122949074 0.004319418448
"block_size_x=1024 elems_per_thread=1" 0.001419527785 0.0122949074 0.03455534758
"block_size_x=1024 elems_per_thread=2" 0.001419527785 0.0122949074 0.01727767379
"block_size_x=1024 elems_per_thread=4" 0.001419527785 0.0122949074 0.008638836896
"block_size_x=1024 elems_per_thread=8" 0.001419527785 0.0122949074 0.004319418448
"block_size_x=1024 elems_per_thread=16" 0.001419527785 0.0122949074 0.002159709224
EOD
$marks << EOD
0 1.229932 1.229852 1.230077
1 0.616254 0.616126 0.616382
2 0.309487 0.309439 0.309567
3 0.1568 0.156736 0.156896
4 0.0811995 0.080928 0.081343
5 0.616318 0.616094 0.616382
6 0.309519 0.309375 0.309662
7 0.15648 0.156415 0.156608
8 0.0803835 0.080256 0.080512
9 0.045184 0.044992 0.045312
10 0.3099675 0.309631 0.310335
11 0.155872 0.155807 0.156
12 0.079744 0.079648 0.080095
13 0.042015 0.041919 0.042272
14 0.02816 0.028031 0.028256
15 0.155807 0.155744 0.155936
16 0.0792315 0.079168 0.079296
17 0.041616 0.041472 0.041857
18 0.025888 0.025728 0.025985
19 0.021728 0.021664 0.021856
20 0.091296 0.090848 0.091583
21 0.045952 0.045856 0.046143
22 0.0293595 0.02928 0.029504
23 0.0221595 0.022112 0.022272
24 0.019712 0.019648 0.019808
25 0.0972635 0.097087 0.097344
26 0.053456 0.053312 0.05376
27 0.031136 0.031072 0.031232
28 0.022528 0.022463 0.022688
29 0.020608 0.020544 0.020704
EOD
set encoding utf8
set datafile missing '?'
set linetype 1 lc rgb '#0072B2' lw 2.5 pt 7 ps 1.5 dt solid
set linetype 2 lc rgb '#D55E00' lw 2.5 pt 5 ps 1.5 dt solid
set linetype 3 lc rgb '#009E73' lw 2.5 pt 9 ps 1.5 dt solid
set linetype 4 lc rgb '#CC79A7' lw 2.5 pt 13 ps 1.5 dt solid
set linetype 5 lc rgb '#E69F00' lw 2.5 pt 11 ps 1.5 dt solid
set linetype 6 lc rgb '#56B4E9' lw 2.5 pt 15 ps 1.5 dt solid
set linetype 7 lc rgb '#000000' lw 2.5 pt 7 ps 1.5 dt solid
set linetype 8 lc rgb '#999999' lw 2.5 pt 5 ps 1.5 dt solid
set linetype cycle 8
set border 3 lw 1.5 lc rgb '#404040'
set tics nomirror out scale 0.75 textcolor rgb '#202020'
set style textbox opaque noborder margins 1,1
set title 'Where the time goes: reduction/sum, n=16777216 (LPBM, formula form)' . "\n" . 'NVIDIA H200; R^2 0.990, held-out median |error| 8.1%' font ',18'
set xlabel 'configuration'
set ylabel 'time per launch (ms)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.7 relative
set xtics nomirror scale 0 rotate by 90 right
set xrange [-0.6:29.6]
set yrange [0:1.37768624]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'breakdown-reduction-sum-n_16777216.svg'
plot $bars using 2:xtic(1) lt 1 title 'PUT: processing units', \
     $bars using 3 lt 2 title 'G2ST: global to shared', \
     $bars using 4 lt 3 title 'ATOM: atomics', \
     $marks using 1:2:3:4 with yerrorbars pt 7 ps 1.3 lw 1.5 lc rgb '#000000' title 'measured (95% CI)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'breakdown-reduction-sum-n_16777216.png'
replot
unset output
