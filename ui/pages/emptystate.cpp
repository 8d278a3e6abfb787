#include "pages/emptystate.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ui {

namespace {

QPushButton *buttonFor(QAction *action, const QString &name, QWidget *parent) {
    auto *button = new QPushButton(action->icon(), action->text().remove(QLatin1Char('&')), parent);
    button->setObjectName(name);
    button->setToolTip(action->toolTip());
    QObject::connect(button, &QPushButton::clicked, action, &QAction::trigger);
    return button;
}

} // namespace

EmptyState::EmptyState(QAction *open, QAction *paste, QWidget *parent)
    : QWidget(parent)
    , m_demo(new QPushButton(tr("Run the Demo"), this)) {
    setObjectName(QStringLiteral("emptyState"));
    auto *title = new QLabel(tr("<h2>Crawl a list of URLs</h2>"), this);
    auto *text = new QLabel(
        tr("<p>Open a URL list (one URL per line, or a CSV with a <i>url</i> column), <b>drop a list file "
           "anywhere on this window</b>, or paste URLs from the clipboard. Then press <b>F5</b> to start.</p>"
           "<p>Set the politeness limits in the panel on the left first: they apply per host, and you can "
           "change them while the crawl runs.</p>"),
        this);
    text->setWordWrap(true);
    text->setMaximumWidth(560);
    m_demo->setObjectName(QStringLiteral("emptyDemo"));
    m_demo->setToolTip(tr("Crawl a built-in local site of eight hosts with different personalities (fast, "
                          "slow, flaky, rate-limited, …): nothing leaves this computer"));
    m_demo->hide();
    connect(m_demo, &QPushButton::clicked, this, &EmptyState::demoRequested);

    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(buttonFor(open, QStringLiteral("emptyOpen"), this));
    buttons->addWidget(buttonFor(paste, QStringLiteral("emptyPaste"), this));
    buttons->addWidget(m_demo);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(title, 0, Qt::AlignHCenter);
    layout->addWidget(text, 0, Qt::AlignHCenter);
    layout->addLayout(buttons);
    layout->addStretch(2);
}

void EmptyState::setDemoAvailable(bool available) {
    m_demo->setVisible(available);
}

} // namespace ui
