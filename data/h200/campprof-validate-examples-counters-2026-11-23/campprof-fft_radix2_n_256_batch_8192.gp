# campprof-fft_radix2_n_256_batch_8192.gp - a chart of gpubound, drawn by: gnuplot campprof-fft_radix2_n_256_batch_8192.gp (in this directory)
reset
$s0 << EOD
32 2.273341892 2.273341892 2.273341892
32 1.136670946 1.136670946 1.136670946
32 0.568335473 0.568335473 0.568335473
32 0.2841677365 0.2841677365 0.2841677365
32 0.1985767071 0.1985767071 0.1985767071
32 0.2293956263 0.2293956263 0.2293956263
63 0.2293955751 0.2293955751 0.2293955751
64 0.2293955749 0.2293955749 0.2293955749
64 0.2293955749 0.2293955749 0.2293955749
EOD
$s1 << EOD
32 0.7610562477 0.7610562477 0.7610562477
32 0.3805281239 0.3805281239 0.3805281239
32 0.1902640619 0.1902640619 0.1902640619
32 0.09513203097 0.09513203097 0.09513203097
32 0.061535 0.061535 0.061535
32 0.06889724022 0.06889724022 0.06889724022
63 0.06888141913 0.06888141913 0.06888141913
64 0.0688813492 0.0688813492 0.0688813492
64 0.0688813492 0.0688813492 0.0688813492
EOD
$s2 << EOD
32 0.2479332576 0.2479332576 0.2479332576
32 0.1239666288 0.1239666288 0.1239666288
32 0.06198331441 0.06198331441 0.06198331441
32 0.0309916572 0.0309916572 0.0309916572
32 0.01503634362 0.01503634362 0.01503634362
32 0.01443966332 0.01443966332 0.01443966332
63 0.01441849145 0.01441849145 0.01441849145
64 0.01441839787 0.01441839787 0.01441839787
64 0.01441839787 0.01441839787 0.01441839787
EOD
$s3 << EOD
32 0.698442 0.698234 0.698682
32 0.373005 0.372925 0.373277
32 0.2003505 0.200254 0.200446
32 0.1095675 0.109535 0.109632
32 0.061535 0.061503 0.061568
32 0.038176 0.038112 0.038209
63 0.037488 0.03744 0.037568
64 0.0376315 0.037504 0.037695
64 0.036224 0.036192 0.036256
EOD
$star0 << EOD
32 0.061535
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
set title 'CampProf validation: kernel specdix2 n=256 batch=8192' . "\n" . 'line from 32 warps, degree 0.253; error 20% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [30.72:65.28]
set xtics (32, 63, 64)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:2.500676081]
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
