# campprof-sgemm_regblock_work_per_thread_1_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_1_n_2048.gp (in this directory)
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
32 3.285912528 3.285912528 3.285912528
32 3.285912528 3.285912528 3.285912528
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
48 3.3061475 3.3061475 3.3061475
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
32 5.938761 5.927913 5.943049
32 4.479584 4.471184 4.488304
48 3.335939 3.332947 3.337395
48 2.979605 2.976341 2.9845
48 2.684518 2.683638 2.687095
48 4.8144145 4.81019 4.820782
48 3.3061475 3.304308 3.309395
48 3.067189 3.061237 3.075669
48 2.817318 2.815349 2.82111
48 4.652495 4.649615 4.656335
48 3.425603 3.418516 3.428979
48 3.393844 3.390804 3.397524
EOD
$star0 << EOD
48 3.3061475
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
set title 'CampProf validation: kernel specgblock work_per_thread=1 n=2048' . "\n" . 'line from 48 warps, degree 44.8; error 18.7% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.36:48.64]
set xtics (32, 48)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:6.5373539]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_1_n_2048.svg'
plot $s0 using 1:2:3:4 with linespoints lt 1 title 'worst: every access camped on one L2 slice', \
     $s1 using 1:2:3:4 with linespoints lt 2 title 'application: extrapolated in the band', \
     $s2 using 1:2:3:4 with linespoints lt 3 title 'best: no camping', \
     $s3 using 1:2:3:4 with yerrorlines lt 4 title 'measured', \
     $star0 using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title 'start (48 warps)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'campprof-sgemm_regblock_work_per_thread_1_n_2048.png'
replot
unset output
