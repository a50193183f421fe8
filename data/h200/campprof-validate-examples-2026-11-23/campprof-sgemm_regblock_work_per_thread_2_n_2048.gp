# campprof-sgemm_regblock_work_per_thread_2_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_2_n_2048.gp (in this directory)
reset
$s0 << EOD
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
48 0.0808849759 0.0808849759 0.0808849759
EOD
$s1 << EOD
32 1.896211764 1.896211764 1.896211764
32 1.896211764 1.896211764 1.896211764
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
48 1.9076725 1.9076725 1.9076725
EOD
$s2 << EOD
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
48 0.007224744749 0.007224744749 0.007224744749
EOD
$s3 << EOD
32 3.9584965 3.957169 3.962769
32 2.603255 2.596856 2.606935
48 2.267192 2.263351 2.274071
48 2.167496 2.161944 2.175192
48 1.948297 1.945049 1.956409
48 2.6178305 2.611415 2.623702
48 1.9076725 1.906713 1.918585
48 1.8087455 1.803322 1.810426
48 1.6946815 1.690298 1.697402
48 2.5720865 2.566967 2.577527
48 1.916649 1.910009 1.917945
48 1.9422165 1.941241 1.948761
EOD
$star0 << EOD
48 1.9076725
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
set title 'CampProf validation: kernel specgblock work_per_thread=2 n=2048' . "\n" . 'line from 48 warps, degree 25.8; error 14.8% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.36:48.64]
set xtics (32, 48)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:4.3590459]
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
