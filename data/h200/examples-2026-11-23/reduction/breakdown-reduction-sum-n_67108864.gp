# breakdown-reduction-sum-n_67108864.gp - a chart of gpubound, drawn by: gnuplot breakdown-reduction-sum-n_67108864.gp (in this directory)
reset
$bars << EOD
"block_size_x=32 elems_per_thread=1" 0.01135622228 0.0491796296 4.423084491
"block_size_x=32 elems_per_thread=2" 0.01135622228 0.0491796296 2.211542245
"block_size_x=32 elems_per_thread=4" 0.01135622228 0.0491796296 1.105771123
"block_size_x=32 elems_per_thread=8" 0.01135622228 0.0491796296 0.5528855613
"block_size_x=32 elems_per_thread=16" 0.01135622228 0.0491796296 0.2764427807
"block_size_x=64 elems_per_thread=1" 0.00567811114 0.0491796296 2.211542245
"block_size_x=64 elems_per_thread=2" 0.00567811114 0.0491796296 1.105771123
"block_size_x=64 elems_per_thread=4" 0.00567811114 0.0491796296 0.5528855613
"block_size_x=64 elems_per_thread=8" 0.00567811114 0.0491796296 0.2764427807
"block_size_x=64 elems_per_thread=16" 0.00567811114 0.0491796296 0.1382213903
"block_size_x=128 elems_per_thread=1" 0.00567811114 0.0491796296 1.105771123
"block_size_x=128 elems_per_thread=2" 0.00567811114 0.0491796296 0.5528855613
"block_size_x=128 elems_per_thread=4" 0.00567811114 0.0491796296 0.2764427807
"block_size_x=128 elems_per_thread=8" 0.00567811114 0.0491796296 0.1382213903
"block_size_x=128 elems_per_thread=16" 0.00567811114 0.0491796296 0.06911069517
"block_size_x=256 elems_per_thread=1" 0.00567811114 0.0491796296 0.5528855613
"block_size_x=256 elems_per_thread=2" 0.00567811114 0.0491796296 0.2764427807
"block_size_x=256 elems_per_thread=4" 0.00567811114 0.0491796296 0.1382213903
"block_size_x=256 elems_per_thread=8" 0.00567811114 0.0491796296 0.06911069517
"block_size_x=256 elems_per_thread=16" 0.00567811114 0.0491796296 0.03455534758
"block_size_x=512 elems_per_thread=1" 0.00567811114 0.0491796296 0.2764427807
"block_size_x=512 elems_per_thread=2" 0.00567811114 0.0491796296 0.1382213903
"block_size_x=512 elems_per_thread=4" 0.00567811114 0.0491796296 0.06911069517
"block_size_x=512 elems_per_thread=8" 0.00567811114 0.0491796296 0.03455534758
"block_size_x=512 elems_per_thread=16" 0.00567811114 0.0491796296 0.01727767379
"block_size_x=1024 elems_per_thread=1" 0.00567811114 0.0491796296 0.1382213903
"block_size_x=1024 elems_per_thread=2" 0.00567811114 0.0491796296 0.06911069517
"block_size_x=1024 elems_per_thread=4" 0.00567811114 0.0491796296 0.03455534758
"block_size_x=1024 elems_per_thread=8" 0.00567811114 0.0491796296 0.01727767379
"block_size_x=1024 elems_per_thread=16" 0.00567811114 0.0491796296 0.008638836896
EOD
$marks << EOD
0 4.927569 4.926481 4.928497
1 2.467433 2.466521 2.468601
2 1.2383325 1.238172 1.238973
3 0.6269585 0.624446 0.627773
4 0.3216785 0.320511 0.323039
5 2.467449 2.466681 2.468089
6 1.238956 1.237564 1.239291
7 0.6215175 0.621374 0.622175
8 0.318927 0.317279 0.319583
9 0.168544 0.167775 0.168863
10 1.244716 1.24294 1.245724
11 0.62371 0.623101 0.624446
12 0.315583 0.31488 0.317023
13 0.1649755 0.16464 0.165728
14 0.099519 0.099296 0.099743
15 0.620142 0.619773 0.620638
16 0.313551 0.312991 0.313662
17 0.162992 0.162527 0.163136
18 0.097823 0.097376 0.098016
19 0.0795995 0.079392 0.080095
20 0.3457585 0.345183 0.346302
21 0.17568 0.175199 0.176063
22 0.108128 0.107807 0.10832
23 0.0797435 0.079328 0.079904
24 0.072352 0.072095 0.072704
25 0.3817585 0.381439 0.382143
26 0.2064315 0.206303 0.206783
27 0.1161755 0.116 0.116384
28 0.080448 0.080064 0.080736
29 0.069296 0.069056 0.069408
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
set title 'Where the time goes: reduction/sum, n=67108864 (LPBM, formula form)' . "\n" . 'NVIDIA H200; R^2 0.990, held-out median |error| 8.1%' font ',18'
set xlabel 'configuration'
set ylabel 'time per launch (ms)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.7 relative
set xtics nomirror scale 0 rotate by 90 right
set xrange [-0.6:29.6]
set yrange [0:5.51991664]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'breakdown-reduction-sum-n_67108864.svg'
plot $bars using 2:xtic(1) lt 1 title 'PUT: processing units', \
     $bars using 3 lt 2 title 'G2ST: global to shared', \
     $bars using 4 lt 3 title 'ATOM: atomics', \
     $marks using 1:2:3:4 with yerrorbars pt 7 ps 1.3 lw 1.5 lc rgb '#000000' title 'measured (95% CI)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'breakdown-reduction-sum-n_67108864.png'
replot
unset output
