#pragma once

#include <QList>

#include <vector>

namespace ui {

// A fixed-capacity FIFO that overwrites its oldest element: chart history stays bounded however long
// the crawl runs.
template <typename T> class RingBuffer {
public:
    explicit RingBuffer(qsizetype capacity = 1200)
        : m_data(size_t(capacity > 0 ? capacity : 1)) {}

    void push(const T &value) {
        m_data[(m_start + m_size) % m_data.size()] = value;
        if (m_size < m_data.size())
            ++m_size;
        else
            m_start = (m_start + 1) % m_data.size();
    }
    void clear() { m_start = m_size = 0; }

    qsizetype size() const { return qsizetype(m_size); }
    qsizetype capacity() const { return qsizetype(m_data.size()); }
    bool isEmpty() const { return m_size == 0; }
    const T &at(qsizetype i) const { return m_data[(m_start + size_t(i)) % m_data.size()]; } // 0 = oldest
    const T &last() const { return at(size() - 1); }

    QList<T> toList() const {
        QList<T> out;
        out.reserve(size());
        for (size_t i = 0; i < m_size; ++i)
            out.append(m_data[(m_start + i) % m_data.size()]);
        return out;
    }

private:
    std::vector<T> m_data;
    size_t m_start = 0;
    size_t m_size = 0;
};

} // namespace ui
