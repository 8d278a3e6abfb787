#include "dialogs/crawlrulesdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

namespace ui {

namespace {

QPlainTextEdit *linesEdit(const QString &name, const QString &text, const QString &placeholder) {
    auto *edit = new QPlainTextEdit;
    edit->setObjectName(name);
    edit->setPlainText(text);
    edit->setPlaceholderText(placeholder);
    edit->setTabChangesFocus(true);
    edit->setMaximumHeight(edit->fontMetrics().lineSpacing() * 4 + 12);
    return edit;
}

QLineEdit *lineEdit(const QString &name, const QString &text, const QString &placeholder) {
    auto *edit = new QLineEdit;
    edit->setObjectName(name);
    edit->setText(text);
    edit->setPlaceholderText(placeholder);
    return edit;
}

QComboBox *choice(const QString &name, const QStringList &values, const QString &current) {
    auto *box = new QComboBox;
    box->setObjectName(name);
    box->addItems(values);
    const int at = int(values.indexOf(current.trimmed().toLower()));
    box->setCurrentIndex(at >= 0 ? at : 0);
    return box;
}

} // namespace

CrawlRulesDialog::CrawlRulesDialog(const CrawlRules &rules, QWidget *parent)
    : QDialog(parent)
    , m_robots(choice(QStringLiteral("robotsMode"),
                      {QStringLiteral("obey"), QStringLiteral("report"), QStringLiteral("ignore")},
                      rules.robots))
    , m_robotsAgent(lineEdit(QStringLiteral("robotsAgent"), rules.robotsAgent, QStringLiteral("crawlscope")))
    , m_ignoreCrawlDelay(new QCheckBox(tr("Ignore Crawl-delay")))
    , m_include(linesEdit(QStringLiteral("includePatterns"), rules.include,
                          tr("One regular expression per line; a URL must match one")))
    , m_exclude(linesEdit(QStringLiteral("excludePatterns"), rules.exclude,
                          tr("One regular expression per line, e.g. \\.pdf$")))
    , m_allowedHosts(linesEdit(QStringLiteral("allowedHosts"), rules.allowedHosts,
                               tr("One host, host:port or *.domain per line; empty: every host")))
    , m_expectStatus(lineEdit(QStringLiteral("expectStatus"), rules.expectStatus, QStringLiteral("200-299")))
    , m_expectType(
          lineEdit(QStringLiteral("expectType"), rules.expectType, tr("any, or text/html, application/json")))
    , m_expectText(lineEdit(QStringLiteral("expectText"), rules.expectText, tr("text the page must contain")))
    , m_expectRegex(lineEdit(QStringLiteral("expectRegex"), rules.expectRegex, tr("a regular expression")))
    , m_expectTitle(new QCheckBox(tr("Expect a non-empty HTML title")))
    , m_minBytes(new QSpinBox)
    , m_soft404(choice(QStringLiteral("soft404Mode"),
                       {QStringLiteral("off"), QStringLiteral("report"), QStringLiteral("reject")},
                       rules.soft404))
    , m_note(new QLabel)
    , m_error(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel)) {
    setWindowTitle(tr("Crawl Rules"));
    setObjectName(QStringLiteral("crawlRulesDialog"));
    m_ignoreCrawlDelay->setObjectName(QStringLiteral("ignoreCrawlDelay"));
    m_ignoreCrawlDelay->setChecked(rules.ignoreCrawlDelay);
    m_expectTitle->setObjectName(QStringLiteral("expectTitle"));
    m_expectTitle->setChecked(rules.expectTitle);
    m_minBytes->setObjectName(QStringLiteral("minBytes"));
    m_minBytes->setRange(0, std::numeric_limits<int>::max());
    m_minBytes->setSuffix(tr(" bytes"));
    m_minBytes->setValue(int(std::clamp<qint64>(rules.minBytes, 0, std::numeric_limits<int>::max())));
    m_robots->setToolTip(tr("obey: disallowed URLs are never requested (blocked_robots); report: fetched "
                            "anyway, the row is marked; ignore: robots.txt is not fetched"));
    m_soft404->setToolTip(tr("A 200 whose title or main heading says not found or error: off, report it "
                             "(still accepted), or reject it"));
    m_error->setObjectName(QStringLiteral("crawlRulesError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b3261e"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *robots = new QGroupBox(tr("robots.txt"));
    auto *robotsForm = new QFormLayout(robots);
    robotsForm->addRow(tr("Mode:"), m_robots);
    robotsForm->addRow(tr("Agent token:"), m_robotsAgent);
    robotsForm->addRow(QString(), m_ignoreCrawlDelay);
    auto *scope = new QGroupBox(tr("Scope (on the normalized URL)"));
    auto *scopeForm = new QFormLayout(scope);
    scopeForm->addRow(tr("Include:"), m_include);
    scopeForm->addRow(tr("Exclude:"), m_exclude);
    scopeForm->addRow(tr("Allowed hosts:"), m_allowedHosts);
    auto *acceptance = new QGroupBox(tr("Acceptance (a 200 can still be rejected)"));
    auto *acceptanceForm = new QFormLayout(acceptance);
    acceptanceForm->addRow(tr("Status:"), m_expectStatus);
    acceptanceForm->addRow(tr("Content type:"), m_expectType);
    acceptanceForm->addRow(tr("Text:"), m_expectText);
    acceptanceForm->addRow(tr("Regex:"), m_expectRegex);
    acceptanceForm->addRow(QString(), m_expectTitle);
    acceptanceForm->addRow(tr("Minimum size:"), m_minBytes);
    acceptanceForm->addRow(tr("Soft 404:"), m_soft404);

    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        validate();
        if (errorText().isEmpty())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_note->setObjectName(QStringLiteral("crawlRulesNote"));
    m_note->setWordWrap(true);
    m_note->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(robots);
    layout->addWidget(scope);
    layout->addWidget(acceptance);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    for (QLineEdit *edit : {m_robotsAgent, m_expectStatus, m_expectType, m_expectText, m_expectRegex})
        connect(edit, &QLineEdit::textChanged, this, &CrawlRulesDialog::validate);
    for (QPlainTextEdit *edit : {m_include, m_exclude, m_allowedHosts})
        connect(edit, &QPlainTextEdit::textChanged, this, &CrawlRulesDialog::validate);
    for (QComboBox *box : {m_robots, m_soft404})
        connect(box, &QComboBox::currentIndexChanged, this, &CrawlRulesDialog::validate);
    validate();
}

CrawlRules CrawlRulesDialog::rules() const {
    CrawlRules rules;
    rules.robots = m_robots->currentText();
    rules.robotsAgent = m_robotsAgent->text().trimmed();
    rules.ignoreCrawlDelay = m_ignoreCrawlDelay->isChecked();
    rules.include = m_include->toPlainText();
    rules.exclude = m_exclude->toPlainText();
    rules.allowedHosts = m_allowedHosts->toPlainText();
    rules.expectStatus = m_expectStatus->text().trimmed();
    rules.expectType = m_expectType->text().trimmed();
    rules.expectText = m_expectText->text();
    rules.expectRegex = m_expectRegex->text();
    rules.expectTitle = m_expectTitle->isChecked();
    rules.minBytes = m_minBytes->value();
    rules.soft404 = m_soft404->currentText();
    return rules;
}

void CrawlRulesDialog::setNote(const QString &text) {
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

QString CrawlRulesDialog::errorText() const {
    return m_error->text();
}

QWidget *CrawlRulesDialog::fieldWidget(CrawlRulesField field) const {
    switch (field) {
    case CrawlRulesField::Robots:
        return m_robots;
    case CrawlRulesField::RobotsAgent:
        return m_robotsAgent;
    case CrawlRulesField::Include:
        return m_include;
    case CrawlRulesField::Exclude:
        return m_exclude;
    case CrawlRulesField::AllowedHosts:
        return m_allowedHosts;
    case CrawlRulesField::ExpectStatus:
        return m_expectStatus;
    case CrawlRulesField::ExpectType:
        return m_expectType;
    case CrawlRulesField::ExpectText:
        return m_expectText;
    case CrawlRulesField::ExpectRegex:
        return m_expectRegex;
    case CrawlRulesField::MinBytes:
        return m_minBytes;
    case CrawlRulesField::Soft404:
        return m_soft404;
    case CrawlRulesField::None:
        break;
    }
    return nullptr;
}

void CrawlRulesDialog::validate() {
    const CrawlRulesParse parse = parseCrawlRules(rules());
    m_error->setText(parse.error);
    m_error->setVisible(!parse.error.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(parse.error.isEmpty());
    // The field at fault says so too (its tooltip carries the message).
    for (const CrawlRulesField field :
         {CrawlRulesField::Robots, CrawlRulesField::RobotsAgent, CrawlRulesField::Include,
          CrawlRulesField::Exclude, CrawlRulesField::AllowedHosts, CrawlRulesField::ExpectStatus,
          CrawlRulesField::ExpectType, CrawlRulesField::ExpectText, CrawlRulesField::ExpectRegex,
          CrawlRulesField::MinBytes, CrawlRulesField::Soft404}) {
        QWidget *widget = fieldWidget(field);
        const bool bad = field == parse.field;
        if (widget->property("invalid").toBool() == bad)
            continue;
        widget->setProperty("invalid", bad);
        widget->setStyleSheet(bad ? QStringLiteral("border: 1px solid #b3261e") : QString());
    }
}

} // namespace ui
