# campprof-fft_radix2_n_1024_batch_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-fft_radix2_n_1024_batch_2048.gp (in this directory)
reset
$s0 << EOD
25 53.92495844 53.92495844 53.92495844
25 53.92495844 53.92495844 53.92495844
25 53.92495844 53.92495844 53.92495844
25 53.92495844 53.92495844 53.92495844
25 53.92495844 53.92495844 53.92495844
25 53.92495844 53.92495844 53.92495844
50 53.92329762 53.92329762 53.92329762
60 53.9232403 53.9232403 53.9232403
60 53.9232403 53.9232403 53.9232403
63 53.92323083 53.92323083 53.92323083
64 53.92322815 53.92322815 53.92322815
64 53.92322815 53.92322815 53.92322815
64 53.92322815 53.92322815 53.92322815
EOD
$s1 << EOD
25 47.31524719 47.31524719 47.31524719
25 47.31524719 47.31524719 47.31524719
25 47.31524719 47.31524719 47.31524719
25 47.31524719 47.31524719 47.31524719
25 47.31524719 47.31524719 47.31524719
25 47.31524719 47.31524719 47.31524719
50 47.2 47.2 47.2
60 47.19481956 47.19481956 47.19481956
60 47.19481956 47.19481956 47.19481956
63 47.19395231 47.19395231 47.19395231
64 47.193706 47.193706 47.193706
64 47.193706 47.193706 47.193706
64 47.193706 47.193706 47.193706
EOD
$s2 << EOD
25 5.635360165 5.635360165 5.635360165
25 5.635360165 5.635360165 5.635360165
25 5.635360165 5.635360165 5.635360165
25 5.635360165 5.635360165 5.635360165
25 5.635360165 5.635360165 5.635360165
25 5.635360165 5.635360165 5.635360165
50 4.803853643 4.803853643 4.803853643
60 4.766367621 4.766367621 4.766367621
60 4.766367621 4.766367621 4.766367621
63 4.760091266 4.760091266 4.760091266
64 4.758308729 4.758308729 4.758308729
64 4.758308729 4.758308729 4.758308729
64 4.758308729 4.758308729 4.758308729
EOD
$s3 << EOD
25 941.407 941.151 942.143
25 515.9035 514.975 517.184
25 274.736 274.336 275.04
25 149.8395 149.76 150.016
25 84.128 84.065 84.192
25 49.5845 49.536 49.665
50 47.2 47.136 47.328
60 45.12 45.088 45.184
60 45.952 45.92 45.984
63 45.488 45.408 45.504
64 44.352 44.288 44.384
64 41.872 41.824 41.92
64 44.064 44 44.096
EOD
$star0 << EOD
50 47.2
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
set title 'CampProf validation: kernel specdix2 n=1024 batch=2048' . "\n" . 'line from 50 warps, degree 0.863; error 45.6% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (µs)'
set xrange [23.44:65.56]
set xtics (25, 50, 60, 63, 64)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:1036.3573]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'campprof-fft_radix2_n_1024_batch_2048.svg'
plot $s0 using 1:2:3:4 with linespoints lt 1 title 'worst: every access camped on one L2 slice', \
     $s1 using 1:2:3:4 with linespoints lt 2 title 'application: extrapolated in the band', \
     $s2 using 1:2:3:4 with linespoints lt 3 title 'best: no camping', \
     $s3 using 1:2:3:4 with yerrorlines lt 4 title 'measured', \
     $star0 using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title 'start (50 warps)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'campprof-fft_radix2_n_1024_batch_2048.png'
replot
unset output
