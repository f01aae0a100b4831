namespace Harness.LoadTests.Recording.Tests;

public sealed class PrometheusTextParserTests
{
    private const string ServiceMetrics = """
        # HELP harness_info Constant 1; labels describe the service.
        # TYPE harness_info gauge
        harness_info{service="grpc",mode="iocp",processors="2",gc="workstation"} 1
        harness_threadpool_threads 2
        harness_scheduler_queue_length{mode="iocp"} 0
        harness_operations_executing{operation="compute"} 0
        process_cpu_seconds_total 0.448466
        process_voluntary_context_switches_total 23
        """;

    [Fact]
    public void Our_services_metrics_parse_with_labels_kept_as_written()
    {
        var metrics = PrometheusTextParser.Parse(ServiceMetrics, out var malformed);

        Assert.Equal(0, malformed);
        Assert.Equal(
            new Dictionary<string, double>
            {
                ["harness_info{service=\"grpc\",mode=\"iocp\",processors=\"2\",gc=\"workstation\"}"] = 1,
                ["harness_threadpool_threads"] = 2,
                ["harness_scheduler_queue_length{mode=\"iocp\"}"] = 0,
                ["harness_operations_executing{operation=\"compute\"}"] = 0,
                ["process_cpu_seconds_total"] = 0.448466,
                ["process_voluntary_context_switches_total"] = 23,
            },
            metrics);
    }

    [Fact]
    public void Special_values_timestamps_and_number_forms_are_understood()
    {
        var metrics = PrometheusTextParser.Parse(
            "a NaN\r\nb +Inf\r\nc -Inf\r\nd inf\r\ne 1.5e3 1700000000000\r\nf -0.25\t-5\r\ng .5\r\n  h   7  \r\n# EOF\r\n",
            out var malformed);

        Assert.Equal(0, malformed);
        Assert.True(double.IsNaN(metrics["a"]));
        Assert.Equal(double.PositiveInfinity, metrics["b"]);
        Assert.Equal(double.NegativeInfinity, metrics["c"]);
        Assert.Equal(double.PositiveInfinity, metrics["d"]);
        Assert.Equal(1500, metrics["e"]);
        Assert.Equal(-0.25, metrics["f"]);
        Assert.Equal(0.5, metrics["g"]);
        Assert.Equal(7, metrics["h"]);
        Assert.Equal(8, metrics.Count);
    }

    [Fact]
    public void Label_values_may_hold_braces_escaped_quotes_and_spacing_which_the_key_keeps()
    {
        var metrics = PrometheusTextParser.Parse(
            """
            http_requests{path="/a}b",quote="say \"hi\"",slash="c:\\"} 3
            spaced { a = "1" , b="2", } 4
            empty{} 5
            ns:rule_total 6
            """,
            out var malformed);

        Assert.Equal(0, malformed);
        Assert.Equal(3, metrics["""http_requests{path="/a}b",quote="say \"hi\"",slash="c:\\"}"""]);
        Assert.Equal(4, metrics["""spaced{ a = "1" , b="2", }"""]);
        Assert.Equal(5, metrics["empty{}"]);
        Assert.Equal(6, metrics["ns:rule_total"]);
    }

    [Fact]
    public void Malformed_lines_are_skipped_and_counted()
    {
        var metrics = PrometheusTextParser.Parse(
            """
            good 1
            no_value
            no_space{a="b"}1
            unclosed{a="b" 1
            unquoted{a=b} 1
            bad_label{1a="b"} 1
            9starts_with_digit 1
            not_a_number abc
            bad_timestamp 1 soon
            too_many 1 2 3
            good 2
            {"quoted.name"} 1
            """,
            out var malformed);

        Assert.Equal(11, malformed);
        Assert.Equal(new Dictionary<string, double> { ["good"] = 1 }, metrics);
    }

    [Fact]
    public void An_empty_page_gives_no_samples() => Assert.Empty(PrometheusTextParser.Parse("\n# nothing\n"));
}
