# campprof-fft_radix2_n_256_batch_8192.gp - a chart of gpubound, drawn by: gnuplot campprof-fft_radix2_n_256_batch_8192.gp (in this directory)
reset
$s0 << EOD
32 53.92384687 53.92384687 53.92384687
32 53.92384687 53.92384687 53.92384687
32 53.92384687 53.92384687 53.92384687
32 53.92384687 53.92384687 53.92384687
32 53.92384687 53.92384687 53.92384687
32 53.92384687 53.92384687 53.92384687
63 53.92323083 53.92323083 53.92323083
64 53.92322815 53.92322815 53.92322815
64 53.92322815 53.92322815 53.92322815
EOD
$s1 << EOD
32 61.44 61.44 61.44
32 61.44 61.44 61.44
32 61.44 61.44 61.44
32 61.44 61.44 61.44
32 61.44 61.44 61.44
32 61.44 61.44 61.44
63 61.49551356 61.49551356 61.49551356
64 61.49578502 61.49578502 61.49578502
64 61.49578502 61.49578502 61.49578502
EOD
$s2 << EOD
32 5.12512944 5.12512944 5.12512944
32 5.12512944 5.12512944 5.12512944
32 5.12512944 5.12512944 5.12512944
32 5.12512944 5.12512944 5.12512944
32 5.12512944 5.12512944 5.12512944
32 5.12512944 5.12512944 5.12512944
63 4.760091266 4.760091266 4.760091266
64 4.758308729 4.758308729 4.758308729
64 4.758308729 4.758308729 4.758308729
EOD
$s3 << EOD
32 700.2555 700.159 700.479
32 373.024 372.991 373.247
32 201.024 200.864 201.247
32 109.6315 109.599 109.664
32 61.44 61.376 61.472
32 38.224 38.175 38.304
63 37.664 37.6 37.696
64 37.648 37.568 37.728
64 36.304 36.256 36.384
EOD
$star0 << EOD
32 61.44
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
set title 'CampProf validation: kernel specdix2 n=256 batch=8192' . "\n" . 'line from 32 warps, degree 1.15; error 66.3% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (µs)'
set xrange [30.72:65.28]
set xtics (32, 63, 64)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:770.5269]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'campprof-fft_radix2_n_256_batch_8192.svg'
plot $s0 using 1:2:3:4 with linespoints lt 1 title 'worst: every access camped on one L2 slice', \
     $s1 using 1:2:3:4 with linespoints lt 2 title 'application: extrapolated in the band', \
     $s2 using 1:2:3:4 with linespoints lt 3 title 'best: no camping', \
     $s3 using 1:2:3:4 with yerrorlines lt 4 title 'measured', \
     $star0 using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title 'start (32 warps)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'campprof-fft_radix2_n_256_batch_8192.png'
replot
unset output
