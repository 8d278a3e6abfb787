#pragma once

class QChart;
class QPalette;

namespace ui {

// Draws a chart's frame (background, title, axes, grid, legend) in the window's palette, so that the
// charts stay readable in a dark theme. The data lines keep their own colours.
void applyChartPalette(QChart *chart, const QPalette &palette);

} // namespace ui
