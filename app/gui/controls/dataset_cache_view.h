// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/dataset_cache.h"

#include <QPointer>
#include <QString>
#include <QWidget>

class QLabel;
class QThread;
class QPushButton;

namespace la {

// "Dataset files: 1.1 GiB in 4 files [Clear…]": what real runs left in the cache directory, and a
// way to give the space back. Listing and deleting run on a worker thread (the directory may be on
// a slow disk); the GUI thread only shows the result.
class DatasetCacheView : public QWidget {
    Q_OBJECT
public:
    explicit DatasetCacheView(QWidget* parent = nullptr);
    ~DatasetCacheView() override;

    // Lists `dir` again (after a run, or when the cache directory changes).
    void refresh(const QString& dir);
    // Deletes every dataset file listed, after the user confirmed (tests call it directly).
    void clear();
    // Clearing is refused while a run may be writing or reading a dataset file.
    void setRunning(bool running);

    const DatasetCache& cache() const { return m_cache; }
    QString text() const;
    bool busy() const { return m_worker != nullptr; }

signals:
    void changed();

private:
    void confirmClear();
    void startWorker(bool clearFirst);
    void display(const DatasetCache& cache, const QString& error);

    QLabel* m_label;
    QPushButton* m_clear;
    DatasetCache m_cache;
    QString m_dir;
    QThread* m_worker = nullptr;
    bool m_running = false;
    bool m_again = false; // another refresh was asked for while the worker ran
};

} // namespace la
