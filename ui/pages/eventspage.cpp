#include "pages/eventspage.h"

#include <QDateTime>
#include <QListWidget>
#include <QVBoxLayout>

namespace ui {

EventsPage::EventsPage(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this)) {
    m_list->setObjectName(QStringLiteral("eventsList"));
    m_list->setUniformItemSizes(true);
    m_list->setWordWrap(false);
    m_list->setToolTip(tr("Hosts whose circuit breaker tripped (too many failures), recovered after a "
                          "probe, gave up, or were resumed by you"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_list);
}

void EventsPage::addBreakerEvent(const crawl::BreakerEvent &event) {
    const QString time = QDateTime::fromMSecsSinceEpoch(event.atMs).toString(QStringLiteral("HH:mm:ss"));
    auto *item = new QListWidgetItem(QStringLiteral("%1  %2").arg(time, crawl::breakerEventText(event)));
    const bool bad =
        event.kind == crawl::BreakerEvent::Kind::Tripped || event.kind == crawl::BreakerEvent::Kind::GaveUp;
    item->setIcon(style()->standardIcon(bad ? QStyle::SP_MessageBoxWarning : QStyle::SP_DialogApplyButton));
    item->setToolTip(crawl::breakerEventText(event));
    item->setData(Qt::UserRole, event.host);
    m_list->addItem(item);
    while (m_list->count() > kMaxEvents)
        delete m_list->takeItem(0);
    m_list->scrollToBottom();
    Q_EMIT countChanged(m_list->count());
}

void EventsPage::clear() {
    m_list->clear();
    Q_EMIT countChanged(0);
}

int EventsPage::count() const {
    return m_list->count();
}

} // namespace ui
