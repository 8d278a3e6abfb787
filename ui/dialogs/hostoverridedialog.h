#pragma once

#include "model/crawllimits.h"

#include <QDialog>

class QCheckBox;
class QSpinBox;

namespace ui {

// Per-host limits from the hosts table's context menu: this host's own in-flight limit and interval.
class HostOverrideDialog : public QDialog {
    Q_OBJECT
public:
    HostOverrideDialog(const QString &hostKey, const crawl::HostOverride &current,
                       const crawl::CrawlLimits &global, QWidget *parent = nullptr);
    crawl::HostOverride value() const;

private:
    QCheckBox *m_ownInFlight;
    QSpinBox *m_inFlight;
    QCheckBox *m_ownInterval;
    QSpinBox *m_interval;
};

} // namespace ui
