# campprof-sgemm_regblock_work_per_thread_1_n_2048.gp - a chart of gpubound, drawn by: gnuplot campprof-sgemm_regblock_work_per_thread_1_n_2048.gp (in this directory)
reset
$s0 << EOD
32 31.23175058 31.23175058 31.23175058
32 4.485522533 4.485522533 4.485522533
48 17.42707623 17.42707623 17.42707623
48 10.52489162 10.52489162 10.52489162
48 7.073799317 7.073799317 7.073799317
48 29.5058993 29.5058993 29.5058993
48 15.70153008 15.70153008 15.70153008
48 8.799345469 8.799345469 8.799345469
48 5.348253164 5.348253164 5.348253164
48 28.64312622 28.64312622 28.64312622
48 14.838757 14.838757 14.838757
48 7.936572393 7.936572393 7.936572393
EOD
$s1 << EOD
32 6.723649894 6.723649894 6.723649894
32 0.9628055229 0.9628055229 0.9628055229
48 3.66465926 3.66465926 3.66465926
48 2.212250219 2.212250219 2.212250219
48 1.486045699 1.486045699 1.486045699
48 6.206375082 6.206375082 6.206375082
48 3.301557 3.301557 3.301557
48 1.849147959 1.849147959 1.849147959
48 1.122943438 1.122943438 1.122943438
48 6.024823952 6.024823952 6.024823952
48 3.12000587 3.12000587 3.12000587
48 1.667596829 1.667596829 1.667596829
EOD
$s2 << EOD
32 2.964548336 2.964548336 2.964548336
32 0.4224841341 0.4224841341 0.4224841341
48 1.553752188 1.553752188 1.553752188
48 0.9372406358 0.9372406358 0.9372406358
48 0.6289848599 0.6289848599 0.6289848599
48 2.632647403 2.632647403 2.632647403
48 1.3996243 1.3996243 1.3996243
48 0.7831127478 0.7831127478 0.7831127478
48 0.4748569719 0.4748569719 0.4748569719
48 2.55558346 2.55558346 2.55558346
48 1.322560356 1.322560356 1.322560356
48 0.7060488039 0.7060488039 0.7060488039
EOD
$s3 << EOD
32 5.939648 5.929712 5.946096
32 4.4826365 4.472957 4.493789
48 3.3352535 3.331749 3.341541
48 2.9944715 2.975912 2.997321
48 2.6847305 2.681194 2.687243
48 4.8149695 4.814041 4.818746
48 3.301557 3.298918 3.304165
48 3.0778795 3.068392 3.088104
48 2.819738 2.817258 2.822794
48 4.6547795 4.652828 4.657146
48 3.4169165 3.414309 3.421829
48 3.393317 3.390566 3.398661
EOD
$star0 << EOD
48 3.301557
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
set title 'CampProf validation: kernel specgblock work_per_thread=1 n=2048' . "\n" . 'line from 48 warps, degree 0.133; error 44.4% over all starts' font ',18'
set xlabel 'active warps per SM'
set ylabel 'time per launch (ms)'
set xrange [31.36:48.64]
set xtics (32, 48)
set format x '%g'
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:34.35492564]
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
