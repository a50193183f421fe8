# campprof-sgemm_regblock_work_per_thread_2_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_2_n_2048.gp (in this directory)
reset
$s0 << EOD
32 17.42724578 17.42724578 17.42724578
32 2.759959433 2.759959433 2.759959433
48 10.52489162 10.52489162 10.52489162
48 7.073799317 7.073799317 7.073799317
48 5.348253164 5.348253164 5.348253164
48 15.70153008 15.70153008 15.70153008
48 8.799345469 8.799345469 8.799345469
48 5.348253164 5.348253164 5.348253164
48 3.622707012 3.622707012 3.622707012
48 14.838757 14.838757 14.838757
48 7.936572393 7.936572393 7.936572393
48 4.485480088 4.485480088 4.485480088
EOD
$s1 << EOD
32 3.860835149 3.860835149 3.860835149
32 0.6086645435 0.6086645435 0.6086645435
48 2.279425266 2.279425266 2.279425266
48 1.531200734 1.531200734 1.531200734
48 1.157088467 1.157088467 1.157088467
48 3.401762066 3.401762066 3.401762066
48 1.905313 1.905313 1.905313
48 1.157088467 1.157088467 1.157088467
48 0.7829762008 0.7829762008 0.7829762008
48 3.214705932 3.214705932 3.214705932
48 1.718256867 1.718256867 1.718256867
48 0.970032334 0.970032334 0.970032334
EOD
$s2 << EOD
32 1.6525152 1.6525152 1.6525152
32 0.258479992 0.258479992 0.258479992
48 0.9372406358 0.9372406358 0.9372406358
48 0.6289848599 0.6289848599 0.6289848599
48 0.4748569719 0.4748569719 0.4748569719
48 1.3996243 1.3996243 1.3996243
48 0.7831127478 0.7831127478 0.7831127478
48 0.4748569719 0.4748569719 0.4748569719
48 0.3207290839 0.3207290839 0.3207290839
48 1.322560356 1.322560356 1.322560356
48 0.7060488039 0.7060488039 0.7060488039
48 0.3977930279 0.3977930279 0.3977930279
EOD
$s3 << EOD
32 3.966272 3.962144 3.968864
32 2.603516 2.587947 2.606731
48 2.271902 2.266862 2.277582
48 2.158815 2.153359 2.164591
48 1.946896 1.944049 1.955313
48 2.609083 2.607147 2.612043
48 1.905313 1.901809 1.907761
48 1.80413 1.80197 1.805682
48 1.690963 1.68901 1.692754
48 2.5669715 2.563915 2.568685
48 1.910929 1.908689 1.917393
48 1.943105 1.941329 1.946352
EOD
$star0 << EOD
48 1.905313
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
set title 'CampProf validation: kernel specgblock work_per_thread=2 n=2048' . "\n" . 'line from 48 warps, degree 0.14; error 38.2% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.36:48.64]
set xtics (32, 48)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:19.16997036]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_2_n_2048.svg'
plot $s0 using 1:2:3:4 with linespoints lt 1 title 'worst: every access camped on one L2 slice', \
     $s1 using 1:2:3:4 with linespoints lt 2 title 'application: extrapolated in the band', \
     $s2 using 1:2:3:4 with linespoints lt 3 title 'best: no camping', \
     $s3 using 1:2:3:4 with yerrorlines lt 4 title 'measured', \
     $star0 using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title 'start (48 warps)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_2_n_2048.png'
replot
unset output
