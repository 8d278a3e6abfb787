#include "cluster/clusterattachdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QThread>
#include <QUrl>
#include <QVBoxLayout>

#include <memory>

namespace ui {

namespace {
const QString kRedacted = QStringLiteral("***");
const QString kLastUrlKey = QStringLiteral("cluster/lastUrl"); // the redacted form only
} // namespace

ClusterAttachDialog::ClusterAttachDialog(QWidget *parent)
    : QDialog(parent)
    , m_url(new QLineEdit(this))
    , m_crawl(new QComboBox(this))
    , m_error(new QLabel(this))
    , m_list(new QPushButton(tr("&List Crawls"), this)) {
    setWindowTitle(tr("Attach to Cluster"));
    m_url->setObjectName(QStringLiteral("clusterUrl"));
    m_url->setPlaceholderText(QStringLiteral("redis://host:6379/0"));
    m_url->setToolTip(tr("redis://[user:password@]host:port/db. Prefer the password in %1: it is never "
                         "shown, stored or printed.")
                          .arg(QLatin1String(crawl::RedisUrl::kPasswordVariable)));
    m_url->setText(QSettings().value(kLastUrlKey).toString());
    m_crawl->setObjectName(QStringLiteral("clusterCrawl"));
    m_crawl->setEditable(true);
    m_crawl->setInsertPolicy(QComboBox::NoInsert);
    m_crawl->setMinimumContentsLength(24);
    m_error->setObjectName(QStringLiteral("clusterError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #d0342c"));
    m_list->setObjectName(QStringLiteral("listCrawls"));

    auto *crawlRow = new QHBoxLayout;
    crawlRow->addWidget(m_crawl, 1);
    crawlRow->addWidget(m_list);
    auto *form = new QFormLayout;
    form->addRow(tr("&Redis:"), m_url);
    form->addRow(tr("&Crawl:"), crawlRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Attach"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ClusterAttachDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ClusterAttachDialog::reject);
    connect(m_list, &QPushButton::clicked, this, [this] { probe(false); });
    // The password leaves the field as soon as the user moves on.
    connect(m_url, &QLineEdit::editingFinished, this, [this] { readUrl(); });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

QString ClusterAttachDialog::crawlName() const {
    return m_crawl->currentText().trimmed();
}

std::optional<crawl::RedisUrl> ClusterAttachDialog::readUrl() {
    const QString text = m_url->text().trimmed();
    QUrl typed(text, QUrl::StrictMode);
    const QString typedPassword = typed.password(QUrl::FullyDecoded);
    QString parseText = text;
    if (typedPassword == kRedacted) { // the field's redacted form: the password typed before, if any
        typed.setPassword(m_password.isEmpty() ? QString() : m_password);
        parseText = typed.toString(QUrl::FullyEncoded);
    } else if (!typedPassword.isEmpty()) {
        m_password = typedPassword;
    } else {
        m_password.clear();
    }
    // The password and the TLS files the environment gives (an empty password variable is no password).
    const crawl::RedisUrlParse parsed =
        crawl::parseRedisUrl(parseText, crawl::RedisUrlEnvironment::fromProcess());
    if (!parsed.url) {
        m_error->setText(parsed.error); // never quotes the text
        if (!m_password.isEmpty() && typed.isValid()) {
            typed.setPassword(kRedacted);
            m_url->setText(typed.toString(QUrl::FullyDecoded));
        }
        return std::nullopt;
    }
    // Shown redacted from now on; a password from the environment is not in the field at all.
    crawl::RedisUrl shown = *parsed.url;
    if (m_password.isEmpty())
        shown.password.clear();
    m_url->setText(shown.redacted());
    return parsed.url;
}

void ClusterAttachDialog::accept() {
    probe(true);
}

void ClusterAttachDialog::probe(bool attach) {
    const std::optional<crawl::RedisUrl> url = readUrl();
    if (!url)
        return;
    const QString crawlName = attach ? this->crawlName() : QString();
    if (attach && crawlName.isEmpty()) {
        m_error->setText(tr("Choose the crawl to watch (List Crawls shows those in this Redis)"));
        Q_EMIT probeFinished(m_error->text());
        return;
    }
    m_parsed = url;
    m_error->setText(tr("Connecting to %1…").arg(url->redacted()));
    setBusy(true);
    const int generation = ++m_generation;
    auto result = std::make_shared<crawl::ClusterProbe>();
    QThread *thread = QThread::create(
        [result, target = *url, crawlName] { *result = crawl::probeCluster(target, crawlName); });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    connect(thread, &QThread::finished, this,
            [this, generation, attach, result] { onProbe(generation, attach, *result); });
    thread->start();
}

void ClusterAttachDialog::onProbe(int generation, bool attach, const crawl::ClusterProbe &result) {
    if (generation != m_generation)
        return; // an older question answered late
    setBusy(false);
    const QString typed = m_crawl->currentText();
    if (!result.crawls.isEmpty() || result.error.isEmpty()) {
        m_crawl->clear();
        m_crawl->addItems(result.crawls);
        m_crawl->setEditText(typed.isEmpty() && !result.crawls.isEmpty() ? result.crawls.first() : typed);
    }
    if (!result.error.isEmpty()) {
        m_error->setText(result.error);
    } else if (!attach) {
        m_error->setText(result.crawls.isEmpty()
                             ? tr("No crawls in this Redis database yet")
                             : tr("%n crawl(s) found", nullptr, int(result.crawls.size())));
    } else {
        m_error->clear();
        crawl::RedisUrl remembered = *m_parsed;
        remembered.password.clear(); // never stored, not even redacted
        QSettings().setValue(kLastUrlKey, remembered.redacted());
    }
    Q_EMIT probeFinished(result.error);
    if (attach && result.error.isEmpty())
        QDialog::accept();
}

void ClusterAttachDialog::setBusy(bool busy) {
    m_ok->setEnabled(!busy);
    m_list->setEnabled(!busy);
}

} // namespace ui
