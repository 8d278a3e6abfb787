#pragma once

#include "charts/chartbin.h"

#include <QList>
#include <QPointF>

#include <functional>
#include <optional>

namespace ui {

using BinValue = std::function<std::optional<double>(const ChartBin &)>;

// The drawable pieces of one line over consecutive bins: a point at each bin's centre, broken wherever a
// bin is missing, inactive (paused, idle, finished) or has no value. A piece of a single bin is drawn
// across that bin so it stays visible. With `smoothBins` > 1 each point is the mean of up to that many
// bins ending at it, never reaching across a break.
QList<QList<QPointF>> binSegments(const QList<ChartBin> &bins, qint64 binMs, const BinValue &value,
                                  int smoothBins = 1);

} // namespace ui
