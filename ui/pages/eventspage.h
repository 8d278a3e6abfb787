#pragma once

#include "model/breakerevent.h"

#include <QWidget>

class QListWidget;

namespace ui {

// The Events tab: what happened to hosts while the crawl ran (a breaker tripped, recovered, gave up, or
// the user resumed the host), newest last, with the time. Bounded: the oldest go first.
class EventsPage : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxEvents = 1000;

    explicit EventsPage(QWidget *parent = nullptr);

    void addBreakerEvent(const crawl::BreakerEvent &event);
    void clear();
    QListWidget *list() const { return m_list; }
    int count() const;

Q_SIGNALS:
    void countChanged(int count);

private:
    QListWidget *m_list;
};

} // namespace ui
