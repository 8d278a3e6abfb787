#include "charts/binsegments.h"

namespace ui {

QList<QList<QPointF>> binSegments(const QList<ChartBin> &bins, qint64 binMs, const BinValue &value,
                                  int smoothBins) {
    QList<QList<QPointF>> segments;
    QList<QPointF> current;
    QList<double> raw; // the current piece's unsmoothed values
    qint64 currentStart = 0;
    qint64 expectedStart = 0;
    auto finishPiece = [&]() {
        if (current.size() == 1)
            current = {QPointF(double(currentStart), current[0].y()),
                       QPointF(double(currentStart + binMs), current[0].y())};
        if (!current.isEmpty())
            segments.append(current);
        current.clear();
        raw.clear();
    };
    for (const ChartBin &bin : bins) {
        const std::optional<double> y = bin.active ? value(bin) : std::nullopt;
        if (!current.isEmpty() && (!y || bin.startMs != expectedStart))
            finishPiece();
        if (!y)
            continue;
        if (current.isEmpty())
            currentStart = bin.startMs;
        raw.append(*y);
        const qsizetype n = std::min<qsizetype>(raw.size(), std::max(1, smoothBins));
        double sum = 0;
        for (qsizetype i = raw.size() - n; i < raw.size(); ++i)
            sum += raw[i];
        current.append(QPointF(double(bin.startMs + binMs / 2), sum / double(n)));
        expectedStart = bin.startMs + binMs;
    }
    finishPiece();
    return segments;
}

} // namespace ui
