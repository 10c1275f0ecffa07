// SPDX-License-Identifier: GPL-3.0-or-later
// Dataset files: the page format, where files go, and how they are written (fully, atomically,
// cancellably, once).
#include "io/dataset_file.h"
#include "io/page_format.h"
#include "real_io_harness.h"

#include <QDir>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <atomic>
#include <cstring>

using namespace la;
using namespace la::test;

namespace {

struct Progress {
    std::vector<std::uint64_t> done;
    std::uint64_t total = 0;
    std::string stage;
};

RunCallbacks recording(Progress& progress) {
    RunCallbacks callbacks;
    callbacks.preparing = [&progress](const std::string& stage, std::uint64_t done, std::uint64_t total) {
        progress.stage = stage;
        progress.done.push_back(done);
        progress.total = total;
    };
    return callbacks;
}

QStringList filesIn(const std::string& dir) {
    return QDir(QString::fromStdString(dir)).entryList(QDir::Files | QDir::Hidden);
}

} // namespace

class TestDatasetFile : public QObject {
    Q_OBJECT
private slots:
    void pageFormat();
    void defaultDirectory();
    void fileKey();
    void writesEveryPage();
    void reusesValidFile();
    void rewritesDamagedFile_data();
    void rewritesDamagedFile();
    void cancelLeavesNothing();
    void notEnoughSpace();
    void unusableDirectory();
    void runWritesThenReuses();

private:
    TempCache m_cache;
};

void TestDatasetFile::pageFormat() {
    std::vector<std::byte> page(kBlockSize);
    fillPage(page.data(), 42, 7);
    QCOMPARE(QString::fromStdString(checkPage(page.data(), 42, 7)), QString());
    QCOMPARE(QString::fromStdString(checkPage(page.data(), 43, 7)),
             QStringLiteral("page of another dataset"));
    QCOMPARE(QString::fromStdString(checkPage(page.data(), 42, 8)), QStringLiteral("holds block 7"));
    auto flipped = [&](std::size_t offset) {
        std::vector<std::byte> copy = page;
        copy[offset] ^= std::byte{1};
        return QString::fromStdString(checkPage(copy.data(), 42, 7));
    };
    QCOMPARE(flipped(0), QStringLiteral("not a Lookahead page (bad magic or version)"));
    QCOMPARE(flipped(offsetof(PageHeader, checksum)), QStringLiteral("checksum mismatch"));
    QCOMPARE(flipped(kBlockSize - 1), QStringLiteral("checksum mismatch"));
    QCOMPARE(flipped(100), QStringLiteral("checksum mismatch"));
    // Every page differs, so a page from elsewhere in the file cannot pass for another.
    std::vector<std::byte> other(kBlockSize);
    fillPage(other.data(), 42, 8);
    QVERIFY(std::memcmp(page.data() + sizeof(PageHeader), other.data() + sizeof(PageHeader),
                        kBlockSize - sizeof(PageHeader)) != 0);
}

void TestDatasetFile::defaultDirectory() {
    const QByteArray savedHome = qgetenv("HOME");
    const QByteArray savedXdg = qgetenv("XDG_CACHE_HOME");
    qputenv("HOME", "/home/someone");
    qputenv("XDG_CACHE_HOME", "/var/cache/me");
    QCOMPARE(QString::fromStdString(defaultDatasetDir()), QStringLiteral("/var/cache/me/lookahead/datasets"));
    qputenv("XDG_CACHE_HOME", "relative/path"); // the XDG spec: ignore relative paths
    QCOMPARE(QString::fromStdString(defaultDatasetDir()),
             QStringLiteral("/home/someone/.cache/lookahead/datasets"));
    qunsetenv("XDG_CACHE_HOME");
    QCOMPARE(QString::fromStdString(defaultDatasetDir()),
             QStringLiteral("/home/someone/.cache/lookahead/datasets"));
    qputenv("HOME", savedHome);
    qputenv("XDG_CACHE_HOME", savedXdg);
}

void TestDatasetFile::fileKey() {
    QCOMPARE(QString::fromStdString(datasetFileKey("uniform", 0.05, 42, 27778)),
             QStringLiteral("uniform-0.05-42-27778"));
    QCOMPARE(QString::fromStdString(datasetFileKey("sparse-miss:16", 1, 0, 65536)),
             QStringLiteral("sparse-miss_16-1-0-65536"));
    QCOMPARE(QString::fromStdString(datasetFileKey("../evil/name", 1, 0, 1)),
             QStringLiteral(".._evil_name-1-0-1"));
}

void TestDatasetFile::writesEveryPage() {
    const std::string dir = m_cache.path("write");
    Progress progress;
    const auto file = materializeDataset(dir, "d-1-0-300", 300, recording(progress));
    QVERIFY(file.has_value());
    QCOMPARE(QString::fromStdString(file->path), QString::fromStdString(dir + "/d-1-0-300.heap"));
    QCOMPARE(file->datasetId, datasetIdFor("d-1-0-300"));
    struct stat st {};
    QCOMPARE(::stat(file->path.c_str(), &st), 0);
    QCOMPARE(std::uint64_t(st.st_size), 300 * std::uint64_t{kBlockSize});
    QVERIFY(std::uint64_t(st.st_blocks) * 512 >= std::uint64_t(st.st_size)); // no holes
    const int fd = ::open(file->path.c_str(), O_RDONLY);
    std::vector<std::byte> page(kBlockSize);
    for (std::uint32_t block = 0; block < 300; ++block) {
        QCOMPARE(::pread(fd, page.data(), kBlockSize, off_t{block} * kBlockSize), ssize_t{kBlockSize});
        QCOMPARE(QString::fromStdString(checkPage(page.data(), file->datasetId, block)), QString());
    }
    ::close(fd);
    QVERIFY(!progress.done.empty());
    QCOMPARE(progress.done.back(), progress.total);
    QCOMPARE(progress.total, 300 * std::uint64_t{kBlockSize});
    QVERIFY(std::is_sorted(progress.done.begin(), progress.done.end()));
    QCOMPARE(QString::fromStdString(progress.stage), QStringLiteral("writing dataset file d-1-0-300.heap"));
    QCOMPARE(filesIn(dir), QStringList{QStringLiteral("d-1-0-300.heap")}); // no temporary left
}

void TestDatasetFile::reusesValidFile() {
    const std::string dir = m_cache.path("reuse");
    QVERIFY(materializeDataset(dir, "d-1-0-64", 64, {}));
    struct stat before {};
    QCOMPARE(::stat((dir + "/d-1-0-64.heap").c_str(), &before), 0);
    Progress progress;
    QVERIFY(materializeDataset(dir, "d-1-0-64", 64, recording(progress)));
    QVERIFY(progress.done.empty()); // nothing written
    struct stat after {};
    QCOMPARE(::stat((dir + "/d-1-0-64.heap").c_str(), &after), 0);
    QCOMPARE(after.st_ino, before.st_ino);
    QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
}

void TestDatasetFile::rewritesDamagedFile_data() {
    QTest::addColumn<QString>("damage");
    QTest::newRow("truncated") << "truncated";
    QTest::newRow("sparse (holes read without I/O)") << "sparse";
    QTest::newRow("first page corrupt") << "corrupt";
    QTest::newRow("other dataset's pages") << "other";
}

void TestDatasetFile::rewritesDamagedFile() {
    QFETCH(QString, damage);
    const std::string dir = m_cache.path("damaged-" + damage.toStdString());
    const std::string path = dir + "/d-1-0-64.heap";
    QVERIFY(QDir().mkpath(QString::fromStdString(dir)));
    if (damage == QLatin1String("other")) {
        QVERIFY(materializeDataset(dir, "e-1-0-64", 64, {}));
        QCOMPARE(::rename((dir + "/e-1-0-64.heap").c_str(), path.c_str()), 0);
    } else {
        QVERIFY(materializeDataset(dir, "d-1-0-64", 64, {}));
        if (damage == QLatin1String("truncated")) {
            QCOMPARE(::truncate(path.c_str(), 32 * kBlockSize), 0);
        } else if (damage == QLatin1String("sparse")) {
            QCOMPARE(::unlink(path.c_str()), 0);
            const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT, 0644);
            QCOMPARE(::ftruncate(fd, 64 * kBlockSize), 0);
            ::close(fd);
        } else {
            const int fd = ::open(path.c_str(), O_WRONLY);
            QCOMPARE(::pwrite(fd, "!", 1, 200), ssize_t{1});
            ::close(fd);
        }
    }
    Progress progress;
    QVERIFY(materializeDataset(dir, "d-1-0-64", 64, recording(progress)));
    QVERIFY(!progress.done.empty()); // written again
    QVERIFY(isValidDatasetFile(path, datasetIdFor("d-1-0-64"), 64));
}

void TestDatasetFile::cancelLeavesNothing() {
    const std::string dir = m_cache.path("cancel");
    std::atomic<bool> cancel{false};
    RunCallbacks callbacks;
    callbacks.cancel = &cancel;
    callbacks.preparing = [&](const std::string&, std::uint64_t, std::uint64_t) { cancel = true; };
    QVERIFY(!materializeDataset(dir, "d-1-0-2048", 2048, callbacks).has_value());
    QCOMPARE(filesIn(dir), QStringList());
}

void TestDatasetFile::notEnoughSpace() {
    const std::string dir = m_cache.path("space");
    struct statvfs fs {};
    QVERIFY(::statvfs(m_cache.path().c_str(), &fs) == 0);
    const std::uint64_t blocks = 1ULL << 31; // 16 TiB
    if (std::uint64_t{fs.f_bavail} * fs.f_frsize > blocks * kBlockSize)
        QSKIP("this file system has more than 16 TiB free");
    try {
        materializeDataset(dir, "huge-1-0-2147483648", blocks, {});
        QFAIL("a 16 TiB dataset must not fit");
    } catch (const InputError& error) {
        const std::string what = error.what();
        QVERIFY2(what.find("not enough free space in '" + dir + "'") != std::string::npos, error.what());
        QVERIFY2(what.find("16777216 MiB") != std::string::npos, error.what());
    }
    QCOMPARE(filesIn(dir), QStringList());
}

void TestDatasetFile::unusableDirectory() {
    try {
        materializeDataset("/proc/lookahead-cannot-be-here", "d-1-0-1", 1, {});
        QFAIL("a directory under /proc cannot be created");
    } catch (const InputError& error) {
        QVERIFY2(std::string(error.what())
                         .find("cannot create the dataset directory '/proc/lookahead-cannot-be-here'") !=
                     std::string::npos,
                 error.what());
    }
}

void TestDatasetFile::runWritesThenReuses() {
    RunConfig config = realConfig(QStringLiteral("sync"), true);
    config.dataset.name = "uniform";
    config.dataset.scale = 0.001; // 556 blocks
    config.cacheDir = m_cache.path("runs");
    Progress first;
    RunCallbacks callbacks = recording(first);
    const RunSummary s = runScan(config, "pg18", callbacks);
    QCOMPARE(QString::fromStdString(s.error), QString());
    QCOMPARE(QString::fromStdString(first.stage),
             QStringLiteral("writing dataset file uniform-0.001-0-556.heap"));
    QCOMPARE(s.pagesVerified * kBlockSize, s.bytesRead);
    Progress second;
    runScan(config, "pg18", recording(second));
    QVERIFY(second.done.empty());
}

QTEST_GUILESS_MAIN(TestDatasetFile)
#include "tst_dataset_file.moc"
