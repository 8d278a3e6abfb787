// The GUI thread's request for a short scheduler slice reaches the kernel (Linux 6.12+ reports the slice in
// /proc/thread-self/sched; older kernels accept the request and keep their default).
#include "status/guithreadslice.h"

#include <QTest>
#include <QThread>

#include <sys/utsname.h>

namespace {

bool kernelHonoursSlices() {
    utsname name{};
    if (uname(&name) != 0)
        return false;
    int major = 0;
    int minor = 0;
    if (std::sscanf(name.release, "%d.%d", &major, &minor) != 2)
        return false;
    return major > 6 || (major == 6 && minor >= 12);
}

} // namespace

class TestGuiThreadSlice : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shortSliceReachesTheKernel() {
        if (!kernelHonoursSlices())
            QSKIP("the kernel predates custom slices (6.12)");
        // On a thread of its own: the test's main thread keeps its default.
        qint64 before = -2;
        qint64 after = -2;
        bool accepted = false;
        QThread *thread = QThread::create([&] {
            before = ui::currentSchedulerSliceUs();
            accepted = ui::requestShortSchedulerSlice(500);
            after = ui::currentSchedulerSliceUs();
        });
        thread->start();
        QVERIFY(thread->wait(10'000));
        delete thread;
        QVERIFY(accepted);
        QVERIFY2(before > 0 && before != 500, qPrintable(QString::number(before)));
        QCOMPARE(after, qint64(500));
        QVERIFY(ui::currentSchedulerSliceUs() != 500);
    }
};

QTEST_MAIN(TestGuiThreadSlice)
#include "tst_guithreadslice.moc"
