# patterns-bank-conflict.gp - a chart of gpubound, drawn by: gnuplot patterns-bank-conflict.gp (in this directory)
reset
$s0 << EOD
1 836704.0157 836448.0138 836992.0254
2 836767.9715 836256.0272 837087.9889
4 836512.0292 836127.9964 836928.01
8 1180575.967 1180287.957 1181056.023
16 2237391.949 2236991.882 2239615.917
32 4355488.062 4354368.21 4357791.901
EOD
$s1 << EOD
1 836767.9715 836351.9907 837440.0139
2 836736.0234 836319.983 837119.9965
4 836704.0157 836256.0272 837216.0196
8 836736.0234 836351.9907 837343.9908
16 836863.9946 836575.985 837279.9754
32 836640.0003 836192.0118 836992.0254
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
set title 'Bank conflicts: time of the kernel by conflict degree' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'lanes of a warp on one bank at each store of the original (ways)'
set ylabel 'median time per launch (ns)'
set logscale x 2
set xtics ('1' 1, '2' 2, '4' 4, '8' 8, '16' 16, '32' 32)
set xrange [0.8:40]
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:4793571.091]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'patterns-bank-conflict.svg'
plot $s0 using 1:2:3:4 with yerrorlines lt 1 title 'original, pad = 0', \
     $s1 using 1:2:3:4 with yerrorlines lt 2 title 'original, pad = 1'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'patterns-bank-conflict.png'
replot
unset output
