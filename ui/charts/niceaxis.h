#pragma once

#include <QString>

namespace ui {

// A value axis people can read: round ends, a 1/2/5 x 10^k step, and labels with just enough decimals
// that no two ticks print alike ("0, 0.1, 0.2", never "0, 0, 0").
struct NiceAxis {
    double min = 0;
    double max = 1;
    double step = 0.25;
    int tickCount = 5;   // ticks including both ends
    QString labelFormat; // printf style, for QValueAxis::setLabelFormat
};

// The smallest 1/2/5 x 10^k step that covers [min, max] in at most `maxTicks` ticks (at least 2).
// An empty or inverted range becomes [min, min + 1].
NiceAxis niceAxis(double min, double max, int maxTicks);

} // namespace ui
