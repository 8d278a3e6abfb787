#pragma once

#include <QString>

#include <bitset>

namespace ui {

// Which HTTP statuses a results table shows: any combination of exact codes, chosen one by one or a
// class (2xx, 4xx, …) at a time. Status 0 is "no response" (refused, timed out before an answer,
// invalid URL). A code the crawl has not produced yet follows its class's last choice, so unticking
// "4xx" also hides a 418 that arrives later.
class StatusFilter {
public:
    static constexpr int kNoResponseClass = 0; // status 0
    static constexpr int kClassCount = 6;      // no response, 1xx … 5xx (codes 600-999 count as 5xx)

    bool accepts(int status) const { return m_shown.test(size_t(index(status))); }
    bool showsAll() const { return m_shown.all(); }
    bool showsNothing() const { return m_shown.none(); }

    void setCode(int status, bool shown) { m_shown.set(size_t(index(status)), shown); }
    void setClass(int statusClass, bool shown);
    // Every code of the class shown / none shown / some of each.
    enum class ClassState { Shown, Hidden, Partly };
    ClassState classState(int statusClass) const;
    void showAll() { m_shown.set(); }

    static int classOf(int status);            // 0 for no response, else 1..5
    static QString className(int statusClass); // "no response", "2xx", …

    bool operator==(const StatusFilter &other) const { return m_shown == other.m_shown; }

private:
    static int index(int status) { return status < 0 || status > 999 ? 999 : status; }
    std::bitset<1000> m_shown = std::bitset<1000>().set();
};

} // namespace ui
