#include "widgets/limitspanel.h"

#include "settings/requestheaders.h"
#include "widgets/sliderspinbox.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

SliderSpinBox *makeControl(QWidget *parent, const QString &objectName, int min, int max, bool log,
                           const QString &suffix, const QString &tip) {
    auto *control = new SliderSpinBox(min, max, log, parent);
    control->setObjectName(objectName);
    control->setSuffix(suffix);
    control->setToolTip(tip);
    control->slider()->setToolTip(tip);
    control->spinBox()->setToolTip(tip);
    return control;
}

QLabel *makeLabel(const QString &text, const QString &tip, QWidget *buddy) {
    auto *label = new QLabel(text);
    label->setToolTip(tip);
    label->setBuddy(buddy);
    return label;
}

} // namespace

LimitsPanel::LimitsPanel(QWidget *parent)
    : QWidget(parent) {
    const QString globalTip = tr("Global in flight: the most requests running at once over all hosts. "
                                 "Protects this machine (sockets, memory). 1-256.");
    const QString perHostTip = tr("Per-host in flight: the most requests running at once against one host "
                                  "(host:port). This is what a server feels; keep it low for sites you do "
                                  "not own. 1-64.");
    const QString intervalTip = tr("Per-host interval: the minimum time between two request starts on one "
                                   "host (start to start). 0 = no pacing; 1000 ms = at most one request a "
                                   "second per host.");
    const QString jitterTip = tr("Jitter: each interval is stretched by a random 0 to this percentage, so "
                                 "requests do not arrive in lockstep.");
    const QString rateTip = tr("Global rate cap: the most request starts per second over all hosts. "
                               "Off = no cap beyond the other limits.");
    const QString retriesTip = tr("Retries: how often a URL is tried again after a timeout, a network error "
                                  "or a 408/429/5xx answer, with growing randomized backoff. Other 4xx are "
                                  "never retried.");
    const QString timeoutTip = tr("Timeout: the longest one attempt may take, from its start to the end of "
                                  "the body. A server that trickles bytes still ends here.");

    m_global = makeControl(this, QStringLiteral("globalInFlight"), 1, 256, true, {}, globalTip);
    m_perHost = makeControl(this, QStringLiteral("perHostInFlight"), 1, 64, true, {}, perHostTip);
    m_interval = makeControl(this, QStringLiteral("interval"), 0, 10'000, true, tr(" ms"), intervalTip);
    m_jitter = makeControl(this, QStringLiteral("jitter"), 0, 100, false, tr(" %"), jitterTip);
    m_rate = makeControl(this, QStringLiteral("rateCap"), 0, 5'000, true, tr(" /s"), rateTip);
    m_rate->setSpecialValueText(tr("off"));
    m_retries = makeControl(this, QStringLiteral("retries"), 0, 10, false, {}, retriesTip);
    m_timeout = makeControl(this, QStringLiteral("timeout"), 1, 300, true, tr(" s"), timeoutTip);

    auto *politeness = new QGroupBox(tr("Politeness"), this);
    auto *form = new QFormLayout(politeness);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(makeLabel(tr("&Global in flight"), globalTip, m_global->spinBox()), m_global);
    form->addRow(makeLabel(tr("&Per host in flight"), perHostTip, m_perHost->spinBox()), m_perHost);
    form->addRow(makeLabel(tr("Per-host &interval"), intervalTip, m_interval->spinBox()), m_interval);
    form->addRow(makeLabel(tr("&Jitter"), jitterTip, m_jitter->spinBox()), m_jitter);
    form->addRow(makeLabel(tr("&Rate cap"), rateTip, m_rate->spinBox()), m_rate);
    m_adaptive = new QCheckBox(tr("&Adaptive pace per host"), politeness);
    m_adaptive->setObjectName(QStringLiteral("adaptive"));
    m_adaptive->setToolTip(tr("Each host's in-flight limit and interval follow what it tolerates: down on "
                              "429/503, timeouts or rising latency, slowly back up while it is healthy. The "
                              "values above stay the ceilings; 1 in flight is the floor. The Hosts table "
                              "shows the limit in force and why it moved."));
    form->addRow(m_adaptive);

    auto *fetching = new QGroupBox(tr("Fetching"), this);
    auto *fetchForm = new QFormLayout(fetching);
    fetchForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    fetchForm->addRow(makeLabel(tr("Re&tries"), retriesTip, m_retries->spinBox()), m_retries);
    fetchForm->addRow(makeLabel(tr("Ti&meout"), timeoutTip, m_timeout->spinBox()), m_timeout);

    auto *note = new QLabel(tr("Changes apply to the running crawl at once. Lowering a limit cancels "
                               "nothing: requests in flight finish first."),
                            this);
    note->setWordWrap(true);
    note->setEnabled(false);

    auto *reset = new QPushButton(tr("Reset to Defaults"), this);
    reset->setObjectName(QStringLiteral("resetLimits"));
    reset->setToolTip(tr("Every control above back to its default (per-host overrides stay); applies to "
                         "the running crawl and is remembered"));
    connect(reset, &QPushButton::clicked, this, &LimitsPanel::resetRequested);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(politeness);
    layout->addWidget(fetching);
    layout->addWidget(makeRequestGroup());
    layout->addWidget(note);
    layout->addWidget(reset, 0, Qt::AlignLeft);
    layout->addStretch(1);

    setValues(crawl::CrawlLimits{}, crawl::FetchPolicy{});

    for (SliderSpinBox *control : {m_global, m_perHost, m_interval, m_jitter, m_rate})
        connect(control, &SliderSpinBox::valueChanged, this, &LimitsPanel::limitsEdited);
    for (SliderSpinBox *control : {m_retries, m_timeout})
        connect(control, &SliderSpinBox::valueChanged, this, &LimitsPanel::fetchPolicyEdited);
    connect(m_adaptive, &QCheckBox::toggled, this, &LimitsPanel::limitsEdited);
}

QWidget *LimitsPanel::makeRequestGroup() {
    const QString agentTip =
        tr("User-Agent sent with every request. Empty: %1").arg(crawl::FetchPolicy::defaultUserAgent());
    const QString headersTip =
        tr("Extra request headers, one \"Name: value\" per line (e.g. Accept-Language: "
           "de). Authorization and Cookie go only to each URL's own origin.");
    auto *group = new QGroupBox(tr("Request"), this);
    auto *form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_userAgent = new QLineEdit(group);
    m_userAgent->setObjectName(QStringLiteral("userAgent"));
    m_userAgent->setPlaceholderText(crawl::FetchPolicy::defaultUserAgent());
    m_userAgent->setToolTip(agentTip);
    m_userAgent->setClearButtonEnabled(true);
    m_headers = new QPlainTextEdit(group);
    m_headers->setObjectName(QStringLiteral("requestHeaders"));
    m_headers->setPlaceholderText(tr("Name: value"));
    m_headers->setToolTip(headersTip);
    m_headers->setTabChangesFocus(true);
    m_headers->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_headers->setFixedHeight(m_headers->fontMetrics().lineSpacing() * 4 + 12);
    m_requestError = new QLabel(group);
    m_requestError->setObjectName(QStringLiteral("requestError"));
    m_requestError->setWordWrap(true);
    m_requestError->setStyleSheet(QStringLiteral("color: #d0342c;"));
    m_requestError->hide();
    form->addRow(makeLabel(tr("&User agent"), agentTip, m_userAgent), m_userAgent);
    form->addRow(makeLabel(tr("Hea&ders"), headersTip, m_headers), m_headers);
    form->addRow(m_requestError);

    // The user agent applies when its editing ends (Enter, or focus elsewhere); header lines once typing
    // pauses. Neither applies while any line is invalid: the crawl keeps the last valid ones.
    connect(m_userAgent, &QLineEdit::textChanged, this, &LimitsPanel::validateRequest);
    connect(m_userAgent, &QLineEdit::editingFinished, this, [this] {
        if (validateRequest())
            Q_EMIT fetchPolicyEdited();
    });
    m_headersDebounce = new QTimer(this);
    m_headersDebounce->setSingleShot(true);
    m_headersDebounce->setInterval(500);
    connect(m_headers, &QPlainTextEdit::textChanged, this, [this] {
        validateRequest();
        m_headersDebounce->start();
    });
    connect(m_headersDebounce, &QTimer::timeout, this, [this] {
        if (validateRequest())
            Q_EMIT fetchPolicyEdited();
    });
    return group;
}

bool LimitsPanel::validateRequest() {
    QString error = userAgentError(m_userAgent->text());
    if (error.isEmpty())
        error = parseRequestHeaders(m_headers->toPlainText()).error;
    m_requestError->setText(error);
    m_requestError->setVisible(!error.isEmpty());
    return error.isEmpty();
}

void LimitsPanel::applyTo(crawl::CrawlLimits *limits) const {
    limits->globalInFlight = m_global->value();
    limits->perHostInFlight = m_perHost->value();
    limits->intervalMs = m_interval->value();
    limits->jitter = m_jitter->value() / 100.0;
    limits->maxRatePerSec = m_rate->value();
    limits->adaptive = m_adaptive->isChecked();
}

void LimitsPanel::applyTo(crawl::FetchPolicy *policy) const {
    policy->maxRetries = m_retries->value();
    policy->totalTimeoutS = m_timeout->value();
    // The connect and inactivity timeouts can never exceed the total.
    policy->connectTimeoutS = std::min(policy->connectTimeoutS, policy->totalTimeoutS);
    policy->idleTimeoutS = std::min(policy->idleTimeoutS, policy->totalTimeoutS);
    // Typed text that fails the checks never reaches a request: the policy keeps what it had.
    const RequestHeadersParse headers = parseRequestHeaders(m_headers->toPlainText());
    const QString agent = m_userAgent->text().trimmed();
    if (headers.error.isEmpty() && userAgentError(agent).isEmpty()) {
        policy->userAgent = agent;
        policy->headers = headers.headers;
    }
}

void LimitsPanel::setValues(const crawl::CrawlLimits &limits, const crawl::FetchPolicy &policy) {
    const QSignalBlocker b1(m_global), b2(m_perHost), b3(m_interval), b4(m_jitter), b5(m_rate), b6(m_retries),
        b7(m_timeout), b8(m_adaptive), b9(m_userAgent), b10(m_headers);
    m_global->setValue(limits.globalInFlight);
    m_perHost->setValue(limits.perHostInFlight);
    m_interval->setValue(limits.intervalMs);
    m_jitter->setValue(int(std::lround(limits.jitter * 100)));
    m_rate->setValue(int(std::lround(limits.maxRatePerSec)));
    m_retries->setValue(policy.maxRetries);
    m_timeout->setValue(policy.totalTimeoutS);
    m_adaptive->setChecked(limits.adaptive);
    m_userAgent->setText(policy.userAgent);
    m_headers->setPlainText(headersText(policy.headers));
    validateRequest();
}

void LimitsPanel::loadSettings(QSettings &settings) {
    crawl::CrawlLimits limits;
    crawl::FetchPolicy policy;
    settings.beginGroup(QStringLiteral("limits"));
    limits.globalInFlight = settings.value(QStringLiteral("globalInFlight"), limits.globalInFlight).toInt();
    limits.perHostInFlight =
        settings.value(QStringLiteral("perHostInFlight"), limits.perHostInFlight).toInt();
    limits.intervalMs = settings.value(QStringLiteral("intervalMs"), limits.intervalMs).toInt();
    limits.jitter = settings.value(QStringLiteral("jitter"), limits.jitter).toDouble();
    limits.maxRatePerSec = settings.value(QStringLiteral("maxRatePerSec"), limits.maxRatePerSec).toDouble();
    policy.maxRetries = settings.value(QStringLiteral("maxRetries"), policy.maxRetries).toInt();
    policy.totalTimeoutS = settings.value(QStringLiteral("totalTimeoutS"), policy.totalTimeoutS).toInt();
    limits.adaptive = settings.value(QStringLiteral("adaptive"), limits.adaptive).toBool();
    settings.endGroup();
    // Settings are a file the user (or anyone) can edit: the same checks as typing apply.
    settings.beginGroup(QStringLiteral("request"));
    const QString agent = settings.value(QStringLiteral("userAgent")).toString();
    if (userAgentError(agent).isEmpty())
        policy.userAgent = agent;
    const RequestHeadersParse headers =
        parseRequestHeaders(settings.value(QStringLiteral("headers")).toString());
    if (headers.error.isEmpty())
        policy.headers = headers.headers;
    settings.endGroup();
    setValues(limits, policy);
}

void LimitsPanel::saveSettings(QSettings &settings) const {
    crawl::CrawlLimits limits;
    crawl::FetchPolicy policy;
    applyTo(&limits);
    applyTo(&policy);
    settings.beginGroup(QStringLiteral("limits"));
    settings.setValue(QStringLiteral("globalInFlight"), limits.globalInFlight);
    settings.setValue(QStringLiteral("perHostInFlight"), limits.perHostInFlight);
    settings.setValue(QStringLiteral("intervalMs"), limits.intervalMs);
    settings.setValue(QStringLiteral("jitter"), limits.jitter);
    settings.setValue(QStringLiteral("maxRatePerSec"), limits.maxRatePerSec);
    settings.setValue(QStringLiteral("maxRetries"), policy.maxRetries);
    settings.setValue(QStringLiteral("totalTimeoutS"), policy.totalTimeoutS);
    settings.setValue(QStringLiteral("adaptive"), limits.adaptive);
    settings.endGroup();
    // Invalid text on show is not saved over the last valid request settings.
    if (parseRequestHeaders(m_headers->toPlainText()).error.isEmpty() &&
        userAgentError(m_userAgent->text()).isEmpty()) {
        settings.beginGroup(QStringLiteral("request"));
        settings.setValue(QStringLiteral("userAgent"), policy.userAgent);
        settings.setValue(QStringLiteral("headers"), headersText(policy.headers));
        settings.endGroup();
    }
}

} // namespace ui
