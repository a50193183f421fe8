# campprof-sgemm_regblock_work_per_thread_8_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_8_n_2048.gp (in this directory)
reset
$s0 << EOD
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
36 0.08088539838 0.08088539838 0.08088539838
EOD
$s1 << EOD
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
32 1.1134035 1.1134035 1.1134035
36 1.116304828 1.116304828 1.116304828
EOD
$s2 << EOD
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
36 0.007481612605 0.007481612605 0.007481612605
EOD
$s3 << EOD
32 1.562682 1.557882 1.572411
32 1.2401395 1.237403 1.244155
32 1.209644 1.207196 1.212507
32 1.2067635 1.203964 1.210556
32 1.211099 1.208796 1.214684
32 1.060412 1.059964 1.061692
32 1.1134035 1.108956 1.11942
32 1.213932 1.209628 1.220764
32 1.099677 1.096316 1.106236
32 1.2499475 1.246075 1.252379
32 1.476907 1.475418 1.479963
36 0.998012 0.996476 1.000637
EOD
$star0 << EOD
32 1.1134035
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
set title 'CampProf validation: kernel specgblock work_per_thread=8 n=2048' . "\n" . 'line from 32 warps, degree 15.1; error 8.16% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.84:36.16]
set xtics (32, 36)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:1.7296521]
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
