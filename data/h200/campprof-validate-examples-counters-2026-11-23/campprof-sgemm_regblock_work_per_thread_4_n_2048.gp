# campprof-sgemm_regblock_work_per_thread_4_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_4_n_2048.gp (in this directory)
reset
$s0 << EOD
32 10.52499338 10.52499338 10.52499338
32 4.485522533 4.485522533 4.485522533
32 2.759959433 2.759959433 2.759959433
32 4.485522533 4.485522533 4.485522533
32 2.759959433 2.759959433 2.759959433
32 1.897177883 1.897177883 1.897177883
36 5.348280244 5.348280244 5.348280244
36 8.799390575 8.799390575 8.799390575
36 5.348280244 5.348280244 5.348280244
36 7.936612992 7.936612992 7.936612992
40 7.073817252 7.073817252 7.073817252
40 3.62271599 3.62271599 3.62271599
EOD
$s1 << EOD
32 2.733826994 2.733826994 2.733826994
32 1.163297036 1.163297036 1.163297036
32 0.7145741912 0.7145741912 0.7145741912
32 1.163297036 1.163297036 1.163297036
32 0.7145741912 0.7145741912 0.7145741912
32 0.4902127686 0.4902127686 0.4902127686
36 1.3768695 1.3768695 1.3768695
36 2.267122676 2.267122676 2.267122676
36 1.3768695 1.3768695 1.3768695
36 2.044559382 2.044559382 2.044559382
40 1.813210804 1.813210804 1.813210804
40 0.9273502169 0.9273502169 0.9273502169
EOD
$s2 << EOD
32 0.9964986314 0.9964986314 0.9964986314
32 0.4224841341 0.4224841341 0.4224841341
32 0.258479992 0.258479992 0.258479992
32 0.4224841341 0.4224841341 0.4224841341
32 0.258479992 0.258479992 0.258479992
32 0.176477921 0.176477921 0.176477921
36 0.4912967652 0.4912967652 0.4912967652
36 0.8105122363 0.8105122363 0.8105122363
36 0.4912967652 0.4912967652 0.4912967652
36 0.7307083685 0.7307083685 0.7307083685
40 0.6401642622 0.6401642622 0.6401642622
40 0.3263188473 0.3263188473 0.3263188473
EOD
$s3 << EOD
32 1.8642895 1.862289 1.866417
32 1.3740535 1.371029 1.378709
32 1.746707 1.74149 1.749202
32 1.382757 1.37775 1.386229
32 1.6179715 1.614291 1.619635
32 1.8084815 1.80613 1.813905
36 1.3768695 1.373301 1.380117
36 1.772594 1.769426 1.774834
36 1.4709005 1.466805 1.4765
36 1.5860515 1.583699 1.586996
40 1.4286445 1.424565 1.431988
40 1.641795 1.637683 1.653811
EOD
$star0 << EOD
36 1.3768695
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
set title 'CampProf validation: kernel specgblock work_per_thread=4 n=2048' . "\n" . 'line from 36 warps, degree 0.182; error 40.9% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.68:40.32]
set xtics (32, 36, 40)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:11.57749272]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_4_n_2048.svg'
plot $s0 using 1:2:3:4 with linespoints lt 1 title 'worst: every access camped on one L2 slice', \
     $s1 using 1:2:3:4 with linespoints lt 2 title 'application: extrapolated in the band', \
     $s2 using 1:2:3:4 with linespoints lt 3 title 'best: no camping', \
     $s3 using 1:2:3:4 with yerrorlines lt 4 title 'measured', \
     $star0 using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title 'start (36 warps)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_4_n_2048.png'
replot
unset output
