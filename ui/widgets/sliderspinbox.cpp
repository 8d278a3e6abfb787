#include "widgets/sliderspinbox.h"

#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {
constexpr int kLogSteps = 1000;
}

SliderSpinBox::SliderSpinBox(int minimum, int maximum, bool logarithmic, QWidget *parent)
    : QWidget(parent)
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_spin(new QSpinBox(this))
    , m_min(minimum)
    , m_max(maximum)
    , m_log(logarithmic) {
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    m_spin->setRange(minimum, maximum);
    m_value = m_spin->value();
    m_spin->setKeyboardTracking(false);
    m_spin->setAccelerated(true);
    m_spin->setMinimumWidth(m_spin->fontMetrics().horizontalAdvance(QStringLiteral("10000 ms__")) + 24);
    m_spin->setAlignment(Qt::AlignRight);
    if (m_log) {
        m_slider->setRange(0, kLogSteps);
        m_slider->setPageStep(kLogSteps / 10);
    } else {
        m_slider->setRange(minimum, maximum);
        m_slider->setPageStep(std::max(1, (maximum - minimum) / 10));
    }

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        if (m_syncing)
            return;
        setValue(fromSlider(position));
    });
    // Typed (on Enter or focus-out: no keyboard tracking), arrow keys, the wheel, Page Up/Down: the
    // spin box already shows the value, so the change is detected against m_value, not the box.
    connect(m_spin, &QSpinBox::valueChanged, this, [this](int v) {
        if (m_syncing)
            return;
        setValue(v);
    });
}

int SliderSpinBox::toSlider(int value) const {
    if (!m_log)
        return value;
    // log(1 + v - min) over log(1 + max - min): the low end gets most of the travel.
    const double span = std::log1p(double(m_max - m_min));
    return int(std::lround(std::log1p(double(value - m_min)) / span * kLogSteps));
}

int SliderSpinBox::fromSlider(int position) const {
    if (!m_log)
        return position;
    const double span = std::log1p(double(m_max - m_min));
    return m_min + int(std::lround(std::expm1(double(position) / kLogSteps * span)));
}

int SliderSpinBox::value() const {
    return m_value;
}

void SliderSpinBox::setValue(int value) {
    value = std::clamp(value, m_min, m_max);
    const bool changed = value != m_value;
    m_value = value;
    m_syncing = true;
    m_spin->setValue(value);
    // Keep a log slider where the user left it when it already maps to this value.
    if (fromSlider(m_slider->value()) != value)
        m_slider->setValue(toSlider(value));
    m_syncing = false;
    if (changed)
        Q_EMIT valueChanged(value);
}

void SliderSpinBox::setSuffix(const QString &suffix) {
    m_spin->setSuffix(suffix);
}

void SliderSpinBox::setSpecialValueText(const QString &text) {
    m_spin->setSpecialValueText(text);
}

} // namespace ui
