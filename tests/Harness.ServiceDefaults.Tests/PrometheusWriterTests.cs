using Harness.Metrics;

namespace Harness.ServiceDefaults.Tests;

public sealed class PrometheusWriterTests
{
    [Fact]
    public void Family_WritesHelpAndTypeOnce_ThenEverySample()
    {
        var text = new PrometheusWriter()
            .Family("harness_x", "gauge", "An example.")
            .Sample(1, ("mode", "iocp"))
            .Sample(2.5, ("mode", "custompool"), ("op", "compute"))
            .ToString();

        Assert.Equal(
            "# HELP harness_x An example.\n" +
            "# TYPE harness_x gauge\n" +
            "harness_x{mode=\"iocp\"} 1\n" +
            "harness_x{mode=\"custompool\",op=\"compute\"} 2.5\n",
            text);
    }

    [Fact]
    public void Sample_EscapesLabelValues()
    {
        var text = new PrometheusWriter().Gauge("g", "h", 0, ("l", "a\"b\\c\nd")).ToString();

        Assert.Contains("g{l=\"a\\\"b\\\\c\\nd\"} 0\n", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Sample_WithoutFamily_Throws() =>
        Assert.Throws<InvalidOperationException>(() => new PrometheusWriter().Sample(1));
}
