# campprof-sgemm_regblock_work_per_thread_8_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_8_n_2048.gp (in this directory)
reset
$s0 << EOD
32 7.073867183 7.073867183 7.073867183
32 5.348304083 5.348304083 5.348304083
32 4.485522533 4.485522533 4.485522533
32 4.054131758 4.054131758 4.054131758
32 5.348304083 5.348304083 5.348304083
32 2.759959433 2.759959433 2.759959433
32 2.328568658 2.328568658 2.328568658
32 4.485522533 4.485522533 4.485522533
32 2.759959433 2.759959433 2.759959433
32 1.897177883 1.897177883 1.897177883
32 1.465787109 1.465787109 1.465787109
36 3.622725078 3.622725078 3.622725078
EOD
$s1 << EOD
32 3.389475124 3.389475124 3.389475124
32 2.562125443 2.562125443 2.562125443
32 2.148450602 2.148450602 2.148450602
32 1.941613181 1.941613181 1.941613181
32 2.562125443 2.562125443 2.562125443
32 1.32110092 1.32110092 1.32110092
32 1.1142635 1.1142635 1.1142635
32 2.148450602 2.148450602 2.148450602
32 1.32110092 1.32110092 1.32110092
32 0.9074260796 0.9074260796 0.9074260796
32 0.7005886593 0.7005886593 0.7005886593
36 1.729711225 1.729711225 1.729711225
EOD
$s2 << EOD
32 0.6684903472 0.6684903472 0.6684903472
32 0.5044862051 0.5044862051 0.5044862051
32 0.4224841341 0.4224841341 0.4224841341
32 0.3814830986 0.3814830986 0.3814830986
32 0.5044862051 0.5044862051 0.5044862051
32 0.258479992 0.258479992 0.258479992
32 0.2174789565 0.2174789565 0.2174789565
32 0.4224841341 0.4224841341 0.4224841341
32 0.258479992 0.258479992 0.258479992
32 0.176477921 0.176477921 0.176477921
32 0.1354768855 0.1354768855 0.1354768855
36 0.3316890296 0.3316890296 0.3316890296
EOD
$s3 << EOD
32 1.556132 1.553748 1.564819
32 1.239206 1.238038 1.241815
32 1.2118785 1.207479 1.218647
32 1.209942 1.204246 1.215543
32 1.213126 1.20991 1.216471
32 1.058487 1.05708 1.059608
32 1.1142635 1.109815 1.120823
32 1.2177185 1.211542 1.221207
32 1.0982795 1.091959 1.101591
32 1.244119 1.240823 1.250422
32 1.476276 1.471829 1.477076
36 0.994184 0.991736 0.996216
EOD
$star0 << EOD
32 1.1142635
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
set title 'CampProf validation: kernel specgblock work_per_thread=8 n=2048' . "\n" . 'line from 32 warps, degree 0.425; error 33.4% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.84:36.16]
set xtics (32, 36)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:7.781253901]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_8_n_2048.svg'
plot $s0 using 1:2:3:4 with linespoints lt 1 title 'worst: every access camped on one L2 slice', \
     $s1 using 1:2:3:4 with linespoints lt 2 title 'application: extrapolated in the band', \
     $s2 using 1:2:3:4 with linespoints lt 3 title 'best: no camping', \
     $s3 using 1:2:3:4 with yerrorlines lt 4 title 'measured', \
     $star0 using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title 'start (32 warps)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_8_n_2048.png'
replot
unset output
