#pragma once

#include "model/crawllimits.h"
#include "model/fetchpolicy.h"

#include <QWidget>

class QSettings;

namespace ui {

class SliderSpinBox;

// Sliders with matching spin boxes for every bound the user can steer while a crawl runs. Each edit
// emits limitsEdited() / fetchPolicyEdited() at once; the window forwards it to the engine.
class LimitsPanel : public QWidget {
    Q_OBJECT
public:
    explicit LimitsPanel(QWidget *parent = nullptr);

    // Writes the panel's values into `limits`, leaving its per-host overrides alone.
    void applyTo(crawl::CrawlLimits *limits) const;
    void applyTo(crawl::FetchPolicy *policy) const;
    void setValues(const crawl::CrawlLimits &limits, const crawl::FetchPolicy &policy); // no signals

    void loadSettings(QSettings &settings);
    void saveSettings(QSettings &settings) const;

    SliderSpinBox *globalInFlight() const { return m_global; }
    SliderSpinBox *perHostInFlight() const { return m_perHost; }
    SliderSpinBox *interval() const { return m_interval; }
    SliderSpinBox *timeout() const { return m_timeout; }

Q_SIGNALS:
    void limitsEdited();
    void fetchPolicyEdited();
    void resetRequested(); // the Reset to Defaults button

private:
    SliderSpinBox *m_global;
    SliderSpinBox *m_perHost;
    SliderSpinBox *m_interval;
    SliderSpinBox *m_jitter;
    SliderSpinBox *m_rate;
    SliderSpinBox *m_retries;
    SliderSpinBox *m_timeout;
};

} // namespace ui
