using System.Globalization;
using System.Text;

namespace Harness.Metrics;

/// <summary>
/// Writes the Prometheus text exposition format (version 0.0.4): HELP and TYPE once per family, then samples. The
/// services' /metrics and the load runner's (<c>--metrics-port</c>) both write with it.
/// </summary>
public sealed class PrometheusWriter
{
    public const string ContentType = "text/plain; version=0.0.4; charset=utf-8";

    private readonly StringBuilder _text = new();
    private string? _family;

    public PrometheusWriter Family(string name, string type, string help)
    {
        _family = name;
        _text.Append("# HELP ").Append(name).Append(' ').Append(help).Append('\n');
        _text.Append("# TYPE ").Append(name).Append(' ').Append(type).Append('\n');
        return this;
    }

    public PrometheusWriter Sample(double value, params (string Name, string Value)[] labels) => SampleOf("", value, labels);

    /// <summary>A sample of the family under a suffixed name: a histogram's <c>_bucket</c>, <c>_sum</c> and <c>_count</c>.</summary>
    public PrometheusWriter SampleOf(string suffix, double value, params (string Name, string Value)[] labels)
    {
        var name = _family ?? throw new InvalidOperationException("Call Family before Sample.");
        _text.Append(name).Append(suffix);
        if (labels.Length > 0)
        {
            _text.Append('{');
            for (var i = 0; i < labels.Length; i++)
            {
                if (i > 0)
                {
                    _text.Append(',');
                }

                _text.Append(labels[i].Name).Append("=\"").Append(Escape(labels[i].Value)).Append('"');
            }

            _text.Append('}');
        }

        _text.Append(' ').Append(value.ToString(CultureInfo.InvariantCulture)).Append('\n');
        return this;
    }

    public PrometheusWriter Gauge(string name, string help, double value, params (string Name, string Value)[] labels) =>
        Family(name, "gauge", help).Sample(value, labels);

    public PrometheusWriter Counter(string name, string help, double value, params (string Name, string Value)[] labels) =>
        Family(name, "counter", help).Sample(value, labels);

    public override string ToString() => _text.ToString();

    private static string Escape(string value) =>
        value.Replace("\\", "\\\\", StringComparison.Ordinal)
            .Replace("\"", "\\\"", StringComparison.Ordinal)
            .Replace("\n", "\\n", StringComparison.Ordinal);
}
