#include "models/statusfilter.h"

#include <QObject>

namespace ui {

namespace {

// The codes of a class as [first, last]: "no response" is 0 alone; 5xx takes every code up to 999.
std::pair<int, int> classRange(int statusClass) {
    if (statusClass <= StatusFilter::kNoResponseClass)
        return {0, 0};
    if (statusClass == 1)
        return {1, 199}; // 1-99 are not HTTP statuses; a server that sends them is grouped with 1xx
    if (statusClass >= 5)
        return {500, 999};
    return {statusClass * 100, statusClass * 100 + 99};
}

} // namespace

int StatusFilter::classOf(int status) {
    if (status <= 0)
        return kNoResponseClass;
    if (status < 200)
        return 1;
    return std::min(status / 100, 5);
}

QString StatusFilter::className(int statusClass) {
    if (statusClass <= kNoResponseClass)
        return QObject::tr("no response");
    return QStringLiteral("%1xx").arg(std::min(statusClass, 5));
}

void StatusFilter::setClass(int statusClass, bool shown) {
    const auto [first, last] = classRange(statusClass);
    for (int code = first; code <= last; ++code)
        m_shown.set(size_t(code), shown);
}

StatusFilter::ClassState StatusFilter::classState(int statusClass) const {
    const auto [first, last] = classRange(statusClass);
    int shown = 0;
    for (int code = first; code <= last; ++code)
        shown += m_shown.test(size_t(code)) ? 1 : 0;
    return shown == last - first + 1 ? ClassState::Shown
           : shown == 0              ? ClassState::Hidden
                                     : ClassState::Partly;
}

} // namespace ui
