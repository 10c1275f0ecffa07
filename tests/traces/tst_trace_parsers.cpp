// SPDX-License-Identifier: GPL-3.0-or-later
// Every line form docs/trace-import.md lists, one by one (the only hand-written trace text).
#include "io/segment_path.h"
#include "observed/csv_trace_parser.h"
#include "observed/perf_parser.h"
#include "observed/strace_parser.h"
#include "observed/trace_format.h"

#include <QTest>

using namespace la;

Q_DECLARE_METATYPE(la::LineKind)

namespace {
const char* kRelation = "/var/lib/postgresql/15/main/base/5/16390";
}

class TestTraceParsers : public QObject {
    Q_OBJECT
private slots:
    void straceReadForms();
    void straceUnfinishedAndResumed();
    void straceOtherLines();
    void straceBadLines_data();
    void straceBadLines();
    void perfForms();
    void perfOmitsZeroArguments();
    void perfBadLines();
    void lookaheadCsvRows();
    void formatDetection();
    void segments();
    void resultsAndInterruptedCalls();
    void impossibleValues_data();
    void impossibleValues();
    void straceEscapes();
};

void TestTraceParsers::straceReadForms() {
    TraceLine l;
    // -f -ttt -T -yy, bare pid
    QCOMPARE(parseStraceLine("21715 1796114808.995313 pread64(39</var/lib/postgresql/15/main/base/5/16390>, "
                             "\"\\0\\0\"..., 8192, 32686080) = 8192 <0.000073>",
                             l),
             LineKind::Read);
    QCOMPARE(l.pid, 21715U);
    QVERIFY(l.hasTime);
    QCOMPARE(l.timeNs, 1796114808995313000LL);
    QCOMPARE(l.durationNs, 73000LL);
    QCOMPARE(l.fd, 39LL);
    QCOMPARE(l.path, std::string_view(kRelation));
    QCOMPARE(l.offset, 32686080ULL);
    QCOMPARE(l.bytes, 8192ULL);
    QVERIFY(!l.failed);
    // "[pid N]" prefix, -tt time of day
    QCOMPARE(parseStraceLine("[pid  4242] 09:47:44.500000 pread64(7, \"a\\\"b\"..., 16384, 8192) = 16384", l),
             LineKind::Read);
    QCOMPARE(l.pid, 4242U);
    QCOMPARE(l.timeNs, (9LL * 3600 + 47 * 60 + 44) * 1'000'000'000LL + 500'000'000LL);
    QCOMPARE(l.fd, 7LL);
    QVERIFY(l.path.empty());      // without -yy, fds only
    QCOMPARE(l.durationNs, -1LL); // without -T, no durations
    QCOMPARE(l.bytes, 16384ULL);
    // no -f: no pid, no timestamp
    QCOMPARE(parseStraceLine("pread64(3, \"\"..., 8192, 0) = 8192", l), LineKind::Read);
    QCOMPARE(l.pid, 0U);
    QVERIFY(!l.hasTime);
    QCOMPARE(l.offset, 0ULL);
    // no -f, with -ttt
    QCOMPARE(parseStraceLine("1796114808.000001 pread64(3, \"\"..., 8192, 0) = 8192 <0.000010>", l),
             LineKind::Read);
    QCOMPARE(l.pid, 0U);
    QCOMPARE(l.timeNs, 1796114808000001000LL);
    // preadv: the iovec lengths summed; preadv2 has flags after the offset
    QCOMPARE(parseStraceLine("17818 1796118478.117895 preadv(3</tmp/t.bin>, [{iov_base=\"\\256]\"..., "
                             "iov_len=8192}, {iov_base=\"iov_len=1\"..., iov_len=8192}], 2, 16384) = 16384 "
                             "<0.000014>",
                             l),
             LineKind::Read);
    QCOMPARE(l.bytes, 16384ULL);
    QCOMPARE(l.offset, 16384ULL);
    QCOMPARE(
        parseStraceLine("17818 1796118478.117895 preadv2(3</tmp/t.bin>, [{iov_base=\"\"..., iov_len=8192}, "
                        "{iov_base=\"\"..., iov_len=4096}], 2, 40960, RWF_NOWAIT) = 12288 <0.000014>",
                        l),
        LineKind::Read);
    QCOMPARE(l.bytes, 12288ULL);
    QCOMPARE(l.offset, 40960ULL);
    // failed calls
    QCOMPARE(
        parseStraceLine("17818 1796118478.117970 pread64(99, 0x7fd05ff999a0, 10, 0) = -1 EBADF (Bad file "
                        "descriptor) <0.000009>",
                        l),
        LineKind::Read);
    QVERIFY(l.failed);
    QCOMPARE(l.durationNs, 9000LL);
    QCOMPARE(parseStraceLine("21715 1796114808.995313 pread64(39</x/16390>, 0x7f00, 8192, 8192) = -1 EIO "
                             "(Input/output error)",
                             l),
             LineKind::Read);
    QVERIFY(l.failed);
}

void TestTraceParsers::straceUnfinishedAndResumed() {
    TraceLine l;
    QCOMPARE(
        parseStraceLine("21796 1796114808.100000 pread64(11</var/lib/postgresql/15/main/base/5/16390.1>,  "
                        "<unfinished ...>",
                        l),
        LineKind::Started);
    QCOMPARE(l.pid, 21796U);
    QCOMPARE(l.fd, 11LL);
    QCOMPARE(l.path, std::string_view("/var/lib/postgresql/15/main/base/5/16390.1"));
    QCOMPARE(l.timeNs, 1796114808100000000LL);
    QCOMPARE(
        parseStraceLine("21796 1796114808.100090 <... pread64 resumed>\"\\0\\0\"..., 8192, 65536) = 8192 "
                        "<0.000090>",
                        l),
        LineKind::Resumed);
    QCOMPARE(l.pid, 21796U);
    QCOMPARE(l.offset, 65536ULL);
    QCOMPARE(l.bytes, 8192ULL);
    QCOMPARE(l.durationNs, 90000LL);
    QCOMPARE(
        parseStraceLine("[pid 7] <... preadv resumed>[{iov_base=\"\"..., iov_len=8192}], 1, 0) = 8192", l),
        LineKind::Resumed);
    QCOMPARE(l.bytes, 8192ULL);
    QCOMPARE(parseStraceLine("7 1.5 <... pread64 resumed> <unfinished ...>) = ?", l), LineKind::Resumed);
    QVERIFY(l.failed); // the process died in the call
    QCOMPARE(parseStraceLine("7 1.5 <... pread64 resumed>0x7f00, 8192, 0) = ? <unavailable>", l),
             LineKind::Resumed);
    QVERIFY(l.failed);
}

void TestTraceParsers::straceOtherLines() {
    TraceLine l;
    QCOMPARE(parseStraceLine("17819 1796118477.189917 +++ exited with 0 +++", l), LineKind::Other);
    QCOMPARE(
        parseStraceLine("17818 1796118477.189978 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---", l),
        LineKind::Other);
    QCOMPARE(parseStraceLine("+++ killed by SIGKILL +++", l), LineKind::Other);
    QCOMPARE(parseStraceLine("strace: Process 21715 attached", l), LineKind::Other);
    QCOMPARE(parseStraceLine("# wall time untraced 0.412 s, traced 0.761 s: x1.85", l), LineKind::Other);
    QCOMPARE(parseStraceLine("21715 1796114808.9 openat(AT_FDCWD, \"x\", O_RDONLY) = 3 <0.000010>", l),
             LineKind::Other);
    QCOMPARE(parseStraceLine("21715 1796114808.9 io_uring_enter(5, 1, 0, 0, NULL, 8) = 1 <0.000010>", l),
             LineKind::UringEnter);
}

void TestTraceParsers::straceBadLines_data() {
    QTest::addColumn<QString>("line");
    QTest::newRow("cut in the buffer") << "21715 1796114808.995313 pread64(39</x/16390>, \"\\0\\0";
    QTest::newRow("cut before the result")
        << "21715 1796114808.995313 pread64(39</x/16390>, \"\"..., 8192, 8192";
    QTest::newRow("cut in the duration")
        << "21715 1796114808.995313 pread64(39, \"\"..., 8192, 8192) = 8192 <0.00";
    QTest::newRow("cut in the path") << "21715 1796114808.995313 pread64(39</x/163";
    QTest::newRow("prose") << "hello world";
    QTest::newRow("perf line") << "74.314 ( 0.148 ms): postgres/21796 pread64(fd: 11, count: 8192) = 8192";
    QTest::newRow("no fd") << "21715 1.0 pread64(, \"\"..., 8192, 0) = 8192";
    QTest::newRow("negative offset of a read that succeeded") << "1 1.0 pread64(3, \"\"..., 8192, -1) = 8192";
}

void TestTraceParsers::straceBadLines() {
    QFETCH(QString, line);
    TraceLine l;
    const std::string text = line.toStdString();
    QCOMPARE(parseStraceLine(text, l), LineKind::Bad);
}

void TestTraceParsers::perfForms() {
    TraceLine l;
    QCOMPARE(
        parsePerfLine("74.314 ( 0.148 ms): postgres/21796 pread64(fd: 11, buf: 0x7f85dbb99c00, count: 8192, "
                      "pos: 8192) = 8192",
                      l),
        LineKind::Read);
    QCOMPARE(l.pid, 21796U);
    QCOMPARE(l.timeNs, 74'314'000LL);
    QCOMPARE(l.durationNs, 148'000LL);
    QCOMPARE(l.fd, 11LL);
    QCOMPARE(l.bytes, 8192ULL);
    QCOMPARE(l.offset, 8192ULL);
    // without the prefix and without the result: the seed mails' form
    QCOMPARE(parsePerfLine("pread64(fd: 7, buf: 0x7f6011b7f000, count: 81920, pos: 475193344)", l),
             LineKind::Read);
    QVERIFY(!l.hasTime);
    QCOMPARE(l.durationNs, -1LL);
    QCOMPARE(l.fd, 7LL);
    QCOMPARE(l.bytes, 81920ULL);
    QCOMPARE(l.offset, 475193344ULL);
    // the task without the time, a command with a space, a path after the fd
    QCOMPARE(parsePerfLine(
                 "io worker/3001 pread64(fd: 9</data/base/5/16390.2>, buf: 0x1, count: 8192, pos: 8192) = "
                 "8192",
                 l),
             LineKind::Read);
    QCOMPARE(l.pid, 3001U);
    QCOMPARE(l.path, std::string_view("/data/base/5/16390.2"));
    // preadv: perf shows no lengths, the result says how much
    QCOMPARE(
        parsePerfLine(
            "1.000 ( 0.010 ms): postgres/5 preadv(fd: 11, vec: 0x7ffc, vlen: 2, pos_l: 16384) = 16384", l),
        LineKind::Read);
    QCOMPARE(l.bytes, 16384ULL);
    QCOMPARE(l.offset, 16384ULL);
    // a failure
    QCOMPARE(parsePerfLine(
                 "2.000 ( 0.010 ms): postgres/5 pread64(fd: 11, buf: 0x1, count: 8192, pos: 8192) = -1 EIO "
                 "(Input/output error)",
                 l),
             LineKind::Read);
    QVERIFY(l.failed);
    QCOMPARE(parsePerfLine("3.000 ( 0.001 ms): postgres/5 io_uring_enter(fd: 5, to_submit: 1) = 1", l),
             LineKind::UringEnter);
    QCOMPARE(parsePerfLine("3.000 ( 0.001 ms): postgres/5 openat(dfd: CWD, filename: 0x1) = 3", l),
             LineKind::Other);
    QCOMPARE(parsePerfLine("3.000 (         ): postgres/5  ... [continued]: pread64()) = 8192", l),
             LineKind::Other);
}

void TestTraceParsers::perfOmitsZeroArguments() {
    TraceLine l;
    // perf leaves out zero arguments: no pos: is offset 0, no fd: is fd 0
    QCOMPARE(parsePerfLine(
                 "74.314 ( 0.148 ms): postgres/21796 pread64(fd: 11, buf: 0x7f85dbb99c00, count: 8192) = "
                 "8192",
                 l),
             LineKind::Read);
    QCOMPARE(l.offset, 0ULL);
    QCOMPARE(l.bytes, 8192ULL);
    QCOMPARE(parsePerfLine("pread64(buf: 0x7f6011b7f000, count: 8192)", l), LineKind::Read);
    QCOMPARE(l.fd, 0LL);
    QCOMPARE(l.offset, 0ULL);
}

void TestTraceParsers::perfBadLines() {
    TraceLine l;
    QCOMPARE(parsePerfLine("74.314 ( 0.148 ms): postgres/21796 pread64(fd: 11, buf: 0x7f85dbb99c00, cou", l),
             LineKind::Bad);
    QCOMPARE(parsePerfLine("hello world", l), LineKind::Bad);
    QCOMPARE(parsePerfLine("21715 1796114808.995313 pread64(39</x/16390>, \"\"..., 8192, 0) = 8192", l),
             LineKind::Bad);
    QCOMPARE(parsePerfLine("pread64(fd: 7, count: 8192) = oops", l), LineKind::Bad);
}

void TestTraceParsers::lookaheadCsvRows() {
    TraceLine l;
    QCOMPARE(parseLookaheadCsvLine("run,time_ns,position,event,block,nblocks,io_id,in_flight,distance,"
                                   "combine_distance,pinned,miss,waited",
                                   l),
             LineKind::Other);
    QCOMPARE(parseLookaheadCsvLine("pg18 + backward combining,1500,3,read_started,40,4,7,2,8,16,9,0,0", l),
             LineKind::Read);
    QCOMPARE(l.path, std::string_view("pg18 + backward combining"));
    QCOMPARE(l.timeNs, 1500LL);
    QCOMPARE(l.offset, 40ULL * 8192);
    QCOMPARE(l.bytes, 4ULL * 8192);
    QCOMPARE(l.ioId, 7U);
    QCOMPARE(parseLookaheadCsvLine("a,b,1600,3,read_completed,40,4,7,1,8,16,9,0,0", l), LineKind::Completed);
    QCOMPARE(l.path, std::string_view("a,b"));
    QCOMPARE(parseLookaheadCsvLine("A,1600,3,waited,40,4,7,1,8,16,9,0,0", l), LineKind::Waited);
    QCOMPARE(parseLookaheadCsvLine("A,1600,3,consumed,40,0,0,1,8,16,9,1,0", l), LineKind::Other);
    QCOMPARE(parseLookaheadCsvLine("A,1600,3,read_started,40", l), LineKind::Bad);
    QCOMPARE(parseLookaheadCsvLine("A,x,3,read_started,40,4,7,1,8,16,9,0,0", l), LineKind::Bad);
}

void TestTraceParsers::formatDetection() {
    QCOMPARE(detectTraceFormat(
                 {"run,time_ns,position,event,block,nblocks,io_id,in_flight,distance,combine_distance,"
                  "pinned,miss,waited"}),
             std::optional(TraceFormat::LookaheadCsv));
    QCOMPARE(detectTraceFormat({"1 2.5 pread64(3, \"\"..., 8192, 0) = 8192", "1 2.6 +++ exited with 0 +++"}),
             std::optional(TraceFormat::Strace));
    QCOMPARE(detectTraceFormat({"pread64(fd: 7, buf: 0x7f6011b7f000, count: 81920, pos: 475193344)"}),
             std::optional(TraceFormat::Perf));
    QCOMPARE(detectTraceFormat({"hello", "world"}), std::nullopt);
    QCOMPARE(traceFormatNamed("perf"), TraceFormat::Perf);
    QVERIFY_THROWS_EXCEPTION(std::exception, traceFormatNamed("ltrace"));
}

void TestTraceParsers::segments() {
    SegmentedPath s = splitSegment("/data/base/5/16390.2");
    QCOMPARE(s.relation, std::string_view("/data/base/5/16390"));
    QCOMPARE(s.segment, 2U);
    s = splitSegment("/data/base/5/16390");
    QCOMPARE(s.relation, std::string_view("/data/base/5/16390"));
    QCOMPARE(s.segment, 0U);
    s = splitSegment("/usr/lib/libc.so.6");
    QCOMPARE(s.relation, std::string_view("/usr/lib/libc.so.6"));
    s = splitSegment("/data/base/5/16390_fsm.1");
    QCOMPARE(s.relation, std::string_view("/data/base/5/16390_fsm"));
    QCOMPARE(s.segment, 1U);
    s = splitSegment("/home/x.1/file");
    QCOMPARE(s.relation, std::string_view("/home/x.1/file"));
}

// A read's result and perf's interrupted calls (docs/trace-import.md §1, §2.2).
void TestTraceParsers::resultsAndInterruptedCalls() {
    TraceLine l;
    QCOMPARE(parseStraceLine("1 1.0 pread64(3</r>, \"\"..., 81920, 0) = 8192 <0.000010>", l), LineKind::Read);
    QCOMPARE(l.result, 8192LL);
    QCOMPARE(coveredBytes(l), 8192ULL);
    QCOMPARE(
        parseStraceLine("1 1.0 pread64(3</r>, 0x7ffd12345678, 8192, -1) = -1 EINVAL (Invalid argument)", l),
        LineKind::Read);
    QVERIFY(l.failed);
    QCOMPARE(parsePerfLine("507.395 (         ): postgres/21796 pread64(fd: 39, buf: 0x7f, count: 8192, pos: "
                           "21159936)   ...",
                           l),
             LineKind::Read);
    QVERIFY(l.interrupted);
    QCOMPARE(l.durationNs, -1LL);
    QCOMPARE(l.result, -1LL);
    QCOMPARE(l.offset, 21159936ULL);
    QCOMPARE(parsePerfLine("1.0 ( 0.010 ms): p/2 pread64(fd: 3, \xe2\x80\xa6, pos: 8192) = 0", l),
             LineKind::Read);
    QCOMPARE(l.result, 0LL);
}

// Values no real trace holds are malformed lines, so no arithmetic on them can wrap.
void TestTraceParsers::impossibleValues_data() {
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("line");
    const int strace = int(TraceFormat::Strace), perf = int(TraceFormat::Perf),
              csv = int(TraceFormat::LookaheadCsv);
    QTest::newRow("time INT64_MAX ns")
        << strace << "1 9223372036.854775807 pread64(3, \"\"..., 8192, 0) = 8192";
    QTest::newRow("time past int64") << strace
                                     << "1 9223372036.999999999 pread64(3, \"\"..., 8192, 0) = 8192";
    QTest::newRow("hours past int64")
        << strace << "1 99999999999999999:00:00 pread64(3, \"\"..., 8192, 0) = 8192";
    QTest::newRow("duration of days") << strace << "1 1.0 pread64(3, \"\"..., 8192, 0) = 8192 <100000.0>";
    QTest::newRow("offset near 2^64")
        << strace << "1 1.0 pread64(3, \"\"..., 8192, 18446744073709543424) = 8192";
    QTest::newRow("past block 2^32") << strace << "1 1.0 pread64(3, \"\"..., 8192, 35184372088832) = 8192";
    QTest::newRow("1 TiB read") << strace << "1 1.0 pread64(3, \"\"..., 1099511627776, 0) = 1099511627776";
    QTest::newRow("result over count") << strace << "1 1.0 pread64(3, \"\"..., 8192, 0) = 16384";
    QTest::newRow("pid past 2^32") << strace << "4294967296 1.0 pread64(3, \"\"..., 8192, 0) = 8192";
    QTest::newRow("fd past 2^63") << strace << "1 1.0 pread64(9223372036854775808, \"\"..., 8192, 0) = 8192";
    QTest::newRow("iovecs past 2^64")
        << strace
        << "1 1.0 preadv(3, [{iov_base=\"\", iov_len=18446744073709551615}, {iov_len=2}], 2, 0) = 1";
    QTest::newRow("path past PATH_MAX")
        << strace << "1 1.0 pread64(3</" + QString(5000, QLatin1Char('a')) + ">, \"\"..., 8192, 0) = 8192";
    QTest::newRow("perf time past int64")
        << perf << "9223372036854.999 ( 0.1 ms): p/1 pread64(fd: 3, count: 8192)";
    QTest::newRow("perf tid past 2^32") << perf << "1.0 ( 0.1 ms): p/4294967296 pread64(fd: 3, count: 8192)";
    QTest::newRow("csv block*8192 wraps") << csv << "A,1,3,read_started,2251799813685253,1,7,1,8,16,9,0,0";
    QTest::newRow("csv nblocks 2^51") << csv << "A,1,3,read_started,0,2251799813685248,7,1,8,16,9,0,0";
    QTest::newRow("csv 2^32-1 blocks") << csv << "A,1,3,read_started,0,4294967295,7,1,8,16,9,0,0";
    QTest::newRow("csv time past int64") << csv << "A,9223372036854775808,3,waited,0,1,7,1,8,16,9,0,0";
    QTest::newRow("csv io_id past 2^32") << csv << "A,1,3,read_completed,0,1,4294967296,1,8,16,9,0,0";
}

void TestTraceParsers::impossibleValues() {
    QFETCH(int, format);
    QFETCH(QString, line);
    TraceLine l;
    QCOMPARE(parseTraceLine(TraceFormat(format), line.toStdString(), l), LineKind::Bad);
}

void TestTraceParsers::straceEscapes() {
    QCOMPARE(unescapeStracePath("/a\\nb\\x41\\101\\\\c\\"), std::string("/a\nbAA\\c\\"));
    QCOMPARE(unescapeStracePath("plain"), std::string("plain"));
    QCOMPARE(unescapeStracePath("\\x4"), std::string("x4")); // cut short: the escaped letter itself
}

QTEST_GUILESS_MAIN(TestTraceParsers)
#include "tst_trace_parsers.moc"
