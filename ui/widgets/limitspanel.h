#pragma once

#include "model/crawllimits.h"
#include "model/fetchpolicy.h"

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSettings;

namespace ui {

class SliderSpinBox;

// Sliders with matching spin boxes for every bound the user can steer while a crawl runs, the adaptive
// pace switch, and the request's user agent and extra headers. Each edit emits limitsEdited() /
// fetchPolicyEdited() at once (header lines once typing pauses, and only when every line is valid); the
// window forwards it to the engine.
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
    QCheckBox *adaptive() const { return m_adaptive; }
    QLineEdit *userAgent() const { return m_userAgent; }
    QPlainTextEdit *headers() const { return m_headers; }
    QLabel *requestError() const { return m_requestError; }

Q_SIGNALS:
    void limitsEdited();
    void fetchPolicyEdited();
    void resetRequested(); // the Reset to Defaults button

private:
    QWidget *makeRequestGroup();
    // Checks the user agent and header lines as typed; true (and the error cleared) when both are valid.
    bool validateRequest();

    SliderSpinBox *m_global;
    SliderSpinBox *m_perHost;
    SliderSpinBox *m_interval;
    SliderSpinBox *m_jitter;
    SliderSpinBox *m_rate;
    SliderSpinBox *m_retries;
    SliderSpinBox *m_timeout;
    QCheckBox *m_adaptive = nullptr;
    QLineEdit *m_userAgent = nullptr;
    QPlainTextEdit *m_headers = nullptr;
    QLabel *m_requestError = nullptr;
    QTimer *m_headersDebounce = nullptr;
};

} // namespace ui
