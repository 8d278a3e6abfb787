#pragma once

#include <QWidget>

class QSlider;
class QSpinBox;

namespace ui {

// A slider and a spin box showing one value. The slider may be logarithmic, so a range like 1-256 or
// 0-10,000 ms is usable at both ends.
class SliderSpinBox : public QWidget {
    Q_OBJECT
public:
    SliderSpinBox(int minimum, int maximum, bool logarithmic, QWidget *parent = nullptr);

    int value() const;        // the applied value (a half-typed entry in the box is not applied yet)
    void setValue(int value); // emits valueChanged when it changes
    void setSuffix(const QString &suffix);
    void setSpecialValueText(const QString &text); // shown for the minimum (e.g. "off")
    QSlider *slider() const { return m_slider; }
    QSpinBox *spinBox() const { return m_spin; }

Q_SIGNALS:
    void valueChanged(int value);

private:
    int toSlider(int value) const;
    int fromSlider(int position) const;

    QSlider *m_slider;
    QSpinBox *m_spin;
    int m_min;
    int m_max;
    bool m_log;
    int m_value = 0; // the last value applied and announced: what the panel reports
    bool m_syncing = false;
};

} // namespace ui
