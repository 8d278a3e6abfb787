#pragma once

#include <QString>

class QChartView;

namespace ui {

// Writes what the view shows: ".svg" as a vector drawing, anything else QImage knows by its suffix (PNG
// when there is none). Written beside the target and renamed at the end, so a failed save leaves an
// existing file intact. False with a reason in `error`.
bool saveChartImage(QChartView *view, const QString &path, QString *error = nullptr);
// Asks for a file name (PNG or SVG) and saves; a failure is shown in a message box.
void saveChartWithDialog(QChartView *view);

} // namespace ui
