# bandwidth-stride.gp - a chart of gpubound, drawn by: gnuplot bandwidth-stride.gp (in this directory)
reset
$bars << EOD
"read" 4456.00129 4439.656737 4465.034691 4547.860676 4540.176272 4554.644294 4581.670058 4576.052309 4588.2418
"write" 3629.271766 3622.415024 3645.239942 4322.214518 4315.682666 4331.280707 4354.325458 4338.561037 4374.47789
"copy" 3636.351224 3627.016043 3655.565169 3871.51628 3865.940732 3880.358722 3936.119231 3932.313599 3950.601362
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
set title 'Device memory bandwidth: persistent grid-stride kernels' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'kernel'
set ylabel 'bandwidth (GB/s, 1e9 bytes/s)'
set style data histograms
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0
set xrange [-0.6:2.6]
set yrange [0:5295.7344]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set arrow from graph 0, first 4814.304 to graph 1, first 4814.304 nohead front lw 2 dt (10,6) lc rgb '#404040'
set arrow from graph 0, first 4258.852177 to graph 1, first 4258.852177 nohead front lw 2 dt (3,4) lc rgb '#1a1a1a'
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'bandwidth-stride.svg'
plot $bars using 2:3:4:xtic(1) lt 1 title '4 B per thread', \
     $bars using 5:6:7 lt 2 title '8 B per thread', \
     $bars using 8:9:10 lt 3 title '16 B per thread', \
     keyentry with lines lw 2 dt (10,6) lc rgb '#404040' title 'theoretical peak (4814 GB/s)', \
     keyentry with lines lw 2 dt (3,4) lc rgb '#1a1a1a' title 'driver copy (4259 GB/s)'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'bandwidth-stride.png'
replot
unset output
