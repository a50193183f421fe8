# shape-ubench5-large-default.gp - a chart of gpubound, drawn by: gnuplot shape-ubench5-large-default.gp (in this directory)
reset
$flag << EOD
10 0
11 0
13 0
15 0
17 0
19 0
8 1
9 1
11 1
13 1
15 1
17 1
6 2
7 2
6 3
7 3
9 3
11 3
13 3
15 3
4 4
5 4
4 5
5 5
7 5
9 5
11 5
13 5
2 6
3 6
2 7
3 7
5 7
7 7
9 7
11 7
1 8
1 9
3 9
5 9
7 9
9 9
0 10
0 11
1 11
3 11
5 11
7 11
0 13
1 13
3 13
5 13
0 15
1 15
3 15
0 17
1 17
0 19
EOD
$best << EOD
13 5
EOD
$w5 << EOD
19 0
17 1
15 3
11 7
9 9
7 11
5 13
3 15
1 17
0 19
EOD
$w25 << EOD
18 0
16 1
15 2
14 3
13 4
12 5
11 6
10 7
9 8
8 9
7 10
6 11
5 12
4 13
3 14
2 15
1 16
0 18
EOD
$fail << EOD
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
set title 'Time by block shape (ubench5, size=large, cache=default)' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'columns (blockDim.x)'
set ylabel 'rows (blockDim.y)'
set size ratio -1
set xrange [-0.5:19.5]
set yrange [19.5:-0.5]
set xtics scale 0 ('1' 0, '2' 1, '3' 2, '4' 3, '6' 4, '8' 5, '12' 6, '16' 7, '24' 8, '32' 9, '48' 10, '64' 11, '96' 12, '128' 13, '192' 14, '256' 15, '384' 16, '512' 17, '768' 18, '1024' 19)
set xtics rotate by 90 right
set ytics scale 0 ('1' 0, '2' 1, '3' 2, '4' 3, '6' 4, '8' 5, '12' 6, '16' 7, '24' 8, '32' 9, '48' 10, '64' 11, '96' 12, '128' 13, '192' 14, '256' 15, '384' 16, '512' 17, '768' 18, '1024' 19)
set border 15 lw 1.5 lc rgb '#404040'
unset grid
set arrow from 0.5, graph 0 to 0.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 1.5, graph 0 to 1.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 4.5, graph 0 to 4.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 5.5, graph 0 to 5.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 6.5, graph 0 to 6.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 7.5, graph 0 to 7.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 8.5, graph 0 to 8.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 9.5, graph 0 to 9.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 10.5, graph 0 to 10.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 11.5, graph 0 to 11.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 12.5, graph 0 to 12.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 13.5, graph 0 to 13.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 14.5, graph 0 to 14.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 15.5, graph 0 to 15.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 16.5, graph 0 to 16.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 17.5, graph 0 to 17.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from 18.5, graph 0 to 18.5, graph 1 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 0.5 to graph 1, first 0.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 1.5 to graph 1, first 1.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 2.5 to graph 1, first 2.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 3.5 to graph 1, first 3.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 4.5 to graph 1, first 4.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 5.5 to graph 1, first 5.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 6.5 to graph 1, first 6.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 7.5 to graph 1, first 7.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 8.5 to graph 1, first 8.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 9.5 to graph 1, first 9.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 10.5 to graph 1, first 10.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 11.5 to graph 1, first 11.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 12.5 to graph 1, first 12.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 13.5 to graph 1, first 13.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 14.5 to graph 1, first 14.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 15.5 to graph 1, first 15.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 16.5 to graph 1, first 16.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 17.5 to graph 1, first 17.5 nohead back lc rgb '#cccccc' lw 1
set arrow from graph 0, first 18.5 to graph 1, first 18.5 nohead back lc rgb '#cccccc' lw 1
set key outside right top vertical Left reverse samplen 1 spacing 1.5 width 1 box lc rgb '#bbbbbb'
set style circle radius 0.3
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'shape-ubench5-large-default.png'
plot $flag using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder lc rgb '#cfe3f5' notitle, \
     $best using 1:2:(0.28):(0.28) with boxxyerror fs solid 1.0 noborder lc rgb '#0072B2' notitle, \
     $w5 using 1:2 with circles fs solid 1.0 noborder lc rgb '#0072B2' notitle, \
     $w25 using 1:2 with circles fs empty border lw 2.5 lc rgb '#0072B2' notitle, \
     keyentry with points pt 5 ps 2.2 lc rgb '#0072B2' title 'best', \
     keyentry with points pt 7 ps 2.2 lc rgb '#0072B2' title 'within 5% of best', \
     keyentry with points pt 6 ps 2.2 lw 2.5 lc rgb '#0072B2' title 'within 25% of best', \
     keyentry with boxes fs solid 1.0 noborder lc rgb '#cfe3f5' title 'maximum occupancy'
unset output
