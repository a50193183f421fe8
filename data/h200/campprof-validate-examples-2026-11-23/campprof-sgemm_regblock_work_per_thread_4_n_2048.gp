# campprof-sgemm_regblock_work_per_thread_4_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_4_n_2048.gp (in this directory)
reset
$s0 << EOD
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
32 0.0808857703 0.0808857703 0.0808857703
36 0.08088539838 0.08088539838 0.08088539838
36 0.08088539838 0.08088539838 0.08088539838
36 0.08088539838 0.08088539838 0.08088539838
36 0.08088539838 0.08088539838 0.08088539838
40 0.08088518584 0.08088518584 0.08088518584
40 0.08088518584 0.08088518584 0.08088518584
EOD
$s1 << EOD
32 1.37077039 1.37077039 1.37077039
32 1.37077039 1.37077039 1.37077039
32 1.37077039 1.37077039 1.37077039
32 1.37077039 1.37077039 1.37077039
32 1.37077039 1.37077039 1.37077039
32 1.37077039 1.37077039 1.37077039
36 1.374395 1.374395 1.374395
36 1.374395 1.374395 1.374395
36 1.374395 1.374395 1.374395
36 1.374395 1.374395 1.374395
40 1.376608939 1.376608939 1.376608939
40 1.376608939 1.376608939 1.376608939
EOD
$s2 << EOD
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
32 0.00768769416 0.00768769416 0.00768769416
36 0.007481612605 0.007481612605 0.007481612605
36 0.007481612605 0.007481612605 0.007481612605
36 0.007481612605 0.007481612605 0.007481612605
36 0.007481612605 0.007481612605 0.007481612605
40 0.007355751911 0.007355751911 0.007355751911
40 0.007355751911 0.007355751911 0.007355751911
EOD
$s3 << EOD
32 1.8654805 1.863737 1.869272
32 1.3768265 1.373499 1.379099
32 1.7381375 1.734585 1.749689
32 1.381835 1.378331 1.389883
32 1.6152105 1.611258 1.61753
32 1.8117535 1.804793 1.815194
36 1.374395 1.372091 1.378203
36 1.771625 1.76969 1.775353
36 1.4726985 1.466202 1.47753
36 1.5880105 1.585146 1.592634
40 1.4310985 1.427162 1.432635
40 1.645002 1.639994 1.651738
EOD
$star0 << EOD
36 1.374395
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
set title 'CampProf validation: kernel specgblock work_per_thread=4 n=2048' . "\n" . 'line from 36 warps, degree 18.6; error 9.56% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.68:40.32]
set xtics (32, 36, 40)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:2.0561992]
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
