#pragma once

#include "charts/resultbreakdown.h"

#include <QChartView>
#include <QWidget>

class QBarCategoryAxis;
class QBarSet;
class QValueAxis;

namespace ui {

// The finished URLs at a glance: a response-time histogram, and the status classes (2xx/3xx/4xx/5xx,
// failed) overall and for the hosts with the most results. Fed from a ResultBreakdown; redrawn by the
// owner's timer, never per result.
class DistributionCharts : public QWidget {
    Q_OBJECT
public:
    static constexpr int kHostRows = 8;

    explicit DistributionCharts(QWidget *parent = nullptr);

    void setBreakdown(const ResultBreakdown &breakdown);

    QChartView *histogramView() const { return m_histogramView; }
    QChartView *statusView() const { return m_statusView; }
    QBarSet *histogramSet() const { return m_histogram; }
    QBarSet *statusSet(StatusClass cls) const { return m_status[size_t(cls)]; }
    QStringList statusRows() const; // "all hosts", then the hosts, top to bottom

protected:
    void changeEvent(QEvent *event) override; // a new palette (dark theme): the charts' frames follow

private:
    QChartView *m_histogramView;
    QChartView *m_statusView;
    QBarSet *m_histogram;
    QValueAxis *m_histogramAxis;
    std::array<QBarSet *, size_t(StatusClass::Count)> m_status{};
    QBarCategoryAxis *m_rows;
    QValueAxis *m_statusAxis;
};

} // namespace ui
