#include "dialogs/hostoverridedialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ui {

HostOverrideDialog::HostOverrideDialog(const QString &hostKey, const crawl::HostOverride &current,
                                       const crawl::CrawlLimits &global, QWidget *parent)
    : QDialog(parent)
    , m_ownInFlight(new QCheckBox(tr("Own in-flight limit"), this))
    , m_inFlight(new QSpinBox(this))
    , m_ownInterval(new QCheckBox(tr("Own interval"), this))
    , m_interval(new QSpinBox(this)) {
    setWindowTitle(tr("Limits for %1").arg(hostKey));
    m_inFlight->setRange(1, 64);
    m_inFlight->setValue(current.maxInFlight > 0 ? current.maxInFlight : global.perHostInFlight);
    m_inFlight->setToolTip(tr("The most requests running at once against %1").arg(hostKey));
    m_ownInFlight->setChecked(current.maxInFlight > 0);
    m_interval->setRange(0, 60'000);
    m_interval->setSuffix(tr(" ms"));
    m_interval->setSingleStep(100);
    m_interval->setValue(current.intervalMs >= 0 ? current.intervalMs : global.intervalMs);
    m_interval->setToolTip(tr("Minimum time between two request starts on %1").arg(hostKey));
    m_ownInterval->setChecked(current.intervalMs >= 0);
    m_inFlight->setEnabled(m_ownInFlight->isChecked());
    m_interval->setEnabled(m_ownInterval->isChecked());
    connect(m_ownInFlight, &QCheckBox::toggled, m_inFlight, &QWidget::setEnabled);
    connect(m_ownInterval, &QCheckBox::toggled, m_interval, &QWidget::setEnabled);

    auto *form = new QFormLayout;
    form->addRow(m_ownInFlight, m_inFlight);
    form->addRow(m_ownInterval, m_interval);
    auto *hint = new QLabel(tr("Unchecked values follow the global settings (%1 in flight, %2 ms).")
                                .arg(global.perHostInFlight)
                                .arg(global.intervalMs),
                            this);
    hint->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(buttons);
}

crawl::HostOverride HostOverrideDialog::value() const {
    crawl::HostOverride value;
    value.maxInFlight = m_ownInFlight->isChecked() ? m_inFlight->value() : 0;
    value.intervalMs = m_ownInterval->isChecked() ? m_interval->value() : -1;
    return value;
}

} // namespace ui
