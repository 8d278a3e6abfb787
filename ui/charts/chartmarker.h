#pragma once

#include <QColor>
#include <QString>

namespace ui {

// A moment marked on the charts' time axis: a host's breaker tripped or recovered.
struct ChartMarker {
    qint64 atMs = 0; // epoch ms
    QString label;   // the tooltip: what happened
    QColor color;
    bool operator==(const ChartMarker &) const = default;
};

} // namespace ui
