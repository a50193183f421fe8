# camping-discover.gp - a chart of gpubound, drawn by: gnuplot camping-discover.gp (in this directory)
reset
$bars << EOD
"0" 12.77878026 12.77878026 12.77878026 12.84059841 12.84059841 12.84059841
"128" 1.255738414 1.255738414 1.255738414 0.9018491628 0.9018491628 0.9018491628
"1152" 1.234838722 1.234838722 1.234838722 0.9447370951 0.9447370951 0.9447370951
"4K" 1.247335133 1.247335133 1.247335133 0.9557329119 0.9557329119 0.9557329119
"4224" 1.212071462 1.212071462 1.212071462 0.9566585605 0.9566585605 0.9566585605
"7936" 1.25579905 1.25579905 1.25579905 0.9493642233 0.9493642233 0.9493642233
"8K" 1.250689967 1.250689967 1.250689967 0.9451385718 0.9451385718 0.9451385718
"8448" 1.197636075 1.197636075 1.197636075 0.9540086102 0.9540086102 0.9540086102
"12K" 1.207850199 1.207850199 1.207850199 0.9518054976 0.9518054976 0.9518054976
"16K" 1.263535334 1.263535334 1.263535334 0.9493739758 0.9493739758 0.9493739758
"16512" 1.20814131 1.20814131 1.20814131 0.9525282814 0.9525282814 0.9525282814
"32512" 1.248678684 1.248678684 1.248678684 0.951756793 0.951756793 0.951756793
"32K" 1.2500527 1.2500527 1.2500527 0.9519929965 0.9519929965 0.9519929965
"33024" 1.197999867 1.197999867 1.197999867 0.9544095429 0.9544095429 0.9544095429
"40K" 1.226133257 1.226133257 1.226133257 0.9484732547 0.9484732547 0.9484732547
"64K" 1.265698443 1.265698443 1.265698443 0.9457338435 0.9457338435 0.9457338435
"65664" 1.201609424 1.201609424 1.201609424 0.943920219 0.943920219 0.943920219
"128K" 1.252797085 1.252797085 1.252797085 1.004147547 1.004147547 1.004147547
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
set title 'Camping discovery: slowdown of each pattern against its spread reference' . "\n" . 'NVIDIA H200, 2026-11-21' font ',18'
set xlabel 'pitch (bytes; 0 = L2-slice probe, 128 = row order)'
set ylabel 'time / spread reference'
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.85 border rgb '#303030'
set boxwidth 0.92 relative
set errorbars 1.2 lc rgb '#202020'
set xtics nomirror scale 0 rotate by 45 right
set xrange [-0.6:17.6]
set yrange [0:14.12465825]
set format y '%g'
set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1
set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 width 1 box lc rgb '#bbbbbb'
set terminal svg size 1200,750 dynamic noenhanced font 'Sans,16' background rgb 'white'
set output 'camping-discover.svg'
plot $bars using 2:xtic(1) lt 1 title 'footprint 16M B', \
     $bars using 5 lt 2 title 'footprint 1G B'
set terminal pngcairo size 1200,750 noenhanced font 'Sans,13' background rgb 'white'
set output 'camping-discover.png'
replot
unset output
