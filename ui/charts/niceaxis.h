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

// A time axis with ticks on round clock times: a step of 1, 2, 5, 10, 15 or 30 seconds or minutes (or an
// hour), the ends widened to multiples of it, at most `maxTicks` ticks.
struct NiceTimeAxis {
    qint64 fromMs = 0;
    qint64 toMs = 1000;
    qint64 stepMs = 1000;
    int tickCount = 2;
    QString format; // QDateTimeAxis::setFormat
};
NiceTimeAxis niceTimeAxis(qint64 fromMs, qint64 toMs, int maxTicks);

} // namespace ui
