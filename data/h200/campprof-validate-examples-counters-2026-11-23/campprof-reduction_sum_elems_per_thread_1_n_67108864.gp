# campprof-reduction_sum_elems_per_thread_1_n_67108864.gp - a chart of gpubound, drawn by: gnuplot campprof-reduction_sum_elems_per_thread_1_n_67108864.gp (in this directory)
reset
$s0 << EOD
32 0.4313915873 0.4313915873 0.4313915873
64 0.4313866375 0.4313866375 0.4313866375
64 0.4313866375 0.4313866375 0.4313866375
64 0.4313866375 0.4313866375 0.4313866375
64 0.4313866375 0.4313866375 0.4313866375
64 0.4313866375 0.4313866375 0.4313866375
EOD
$s1 << EOD
32 0.6184050405 0.6184050405 0.6184050405
64 0.6198035 0.6198035 0.6198035
64 0.6198035 0.6198035 0.6198035
64 0.6198035 0.6198035 0.6198035
64 0.6198035 0.6198035 0.6198035
64 0.6198035 0.6198035 0.6198035
EOD
$s2 << EOD
32 0.04100112498 0.04100112498 0.04100112498
64 0.03806655929 0.03806655929 0.03806655929
64 0.03806655929 0.03806655929 0.03806655929
64 0.03806655929 0.03806655929 0.03806655929
64 0.03806655929 0.03806655929 0.03806655929
64 0.03806655929 0.03806655929 0.03806655929
EOD
$s3 << EOD
32 4.928337 4.926928 4.929456
64 2.4680925 2.467693 2.469165
64 1.2438935 1.24207 1.247446
64 0.6198035 0.619675 0.619931
64 0.345741 0.344925 0.346589
64 0.381837 0.381725 0.382141
EOD
$star0 << EOD
64 0.6198035
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
set title 'CampProf validation: kernel specuction/sum elems_per_thread=1 n=67108864' . "\n" . 'line from 64 warps, degree 1.48; error 112% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [30.72:65.28]
set xtics (32, 64)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:5.4224016]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'campprof-reduction_sum_elems_per_thread_1_n_67108864.svg'
plot $s0 using 1:2:3:4 with linespoints lt 1 title 'worst: every access camped on one L2 slice', \
     $s1 using 1:2:3:4 with linespoints lt 2 title 'application: extrapolated in the band', \
     $s2 using 1:2:3:4 with linespoints lt 3 title 'best: no camping', \
     $s3 using 1:2:3:4 with yerrorlines lt 4 title 'measured', \
     $star0 using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title 'start (64 warps)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'campprof-reduction_sum_elems_per_thread_1_n_67108864.png'
replot
unset output
