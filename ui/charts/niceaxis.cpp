#include "charts/niceaxis.h"

#include <algorithm>
#include <cmath>

namespace ui {

NiceAxis niceAxis(double min, double max, int maxTicks) {
    maxTicks = std::max(2, maxTicks);
    if (!std::isfinite(min))
        min = 0;
    if (!std::isfinite(max) || max <= min)
        max = min + 1;
    const double raw = (max - min) / (maxTicks - 1);
    double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    NiceAxis axis;
    // Walk 1, 2, 5, 10, 20, ... from the raw step's decade until the rounded ends fit in maxTicks.
    for (int i = 0;; ++i) {
        const double factor = i % 3 == 0 ? 1.0 : i % 3 == 1 ? 2.0 : 5.0;
        const double step = factor * magnitude * std::pow(10.0, i / 3);
        if (step < raw * (1 - 1e-9))
            continue;
        // A tiny tolerance keeps 0.30000000000000004 from becoming an extra tick.
        const double lo = std::floor(min / step + 1e-9) * step;
        const double hi = std::ceil(max / step - 1e-9) * step;
        const int ticks = int(std::lround((hi - lo) / step)) + 1;
        if (ticks <= maxTicks) {
            axis.min = lo;
            axis.max = hi;
            axis.step = step;
            axis.tickCount = std::max(2, ticks);
            break;
        }
    }
    const int decimals = std::max(0, int(-std::floor(std::log10(axis.step) + 1e-9)));
    axis.labelFormat = QStringLiteral("%.%1f").arg(decimals);
    return axis;
}

NiceTimeAxis niceTimeAxis(qint64 fromMs, qint64 toMs, int maxTicks) {
    maxTicks = std::max(2, maxTicks);
    if (toMs <= fromMs)
        toMs = fromMs + 1000;
    constexpr qint64 kSteps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600};
    // Floor division that also holds before 1970 (negative epochs in tests).
    auto floorTo = [](qint64 ms, qint64 step) {
        return (ms >= 0 ? ms / step : -((-ms + step - 1) / step)) * step;
    };
    NiceTimeAxis axis;
    for (const qint64 seconds : kSteps) {
        const qint64 step = seconds * 1000;
        const qint64 from = floorTo(fromMs, step);
        qint64 to = floorTo(toMs, step);
        if (to < toMs)
            to += step;
        const qint64 ticks = (to - from) / step + 1;
        axis = {from, to, step, int(ticks), {}};
        if (ticks <= maxTicks)
            break;
    }
    axis.format = axis.stepMs < 60'000 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm");
    return axis;
}

} // namespace ui
