# patterns-bank-conflict.gp - a chart of gpubound, drawn by: gnuplot patterns-bank-conflict.gp (in this directory)
reset
$s0 << EOD
1 0.8367040157 0.8364480138 0.8369920254
2 0.8367679715 0.8362560272 0.8370879889
4 0.8365120292 0.8361279964 0.83692801
8 1.180575967 1.180287957 1.181056023
16 2.237391949 2.236991882 2.239615917
32 4.355488062 4.35436821 4.357791901
EOD
$s1 << EOD
1 0.8367679715 0.8363519907 0.8374400139
2 0.8367360234 0.836319983 0.8371199965
4 0.8367040157 0.8362560272 0.8372160196
8 0.8367360234 0.8363519907 0.8373439908
16 0.8368639946 0.836575985 0.8372799754
32 0.8366400003 0.8361920118 0.8369920254
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
set ylabel 'median time per launch (ms)'
set logscale x 2
set xtics ('1' 1, '2' 2, '4' 4, '8' 8, '16' 16, '32' 32)
set xrange [0.8:40]
set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1
set yrange [0:4.793571091]
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
