using System.Globalization;
using System.Net;
using Harness.LoadTests.Tests.Telemetry.Otlp;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Tests.Telemetry;

/// <summary>
/// A test OTLP/HTTP receiver on 127.0.0.1: <c>POST /v1/metrics</c> with a protobuf <c>ExportMetricsServiceRequest</c>, as
/// an OpenTelemetry Collector takes it, answered 200 with an empty <c>ExportMetricsServiceResponse</c>. Keeps every
/// metric it was sent, in order, with the scope that sent it.
/// </summary>
internal sealed class OtlpReceiver : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly List<(string Scope, Metric Metric)> _metrics = [];

    private OtlpReceiver(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    /// <summary>What <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> is set to: the exporter appends <c>/v1/metrics</c>.</summary>
    public Uri Address { get; }

    public static async Task<OtlpReceiver> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [] });
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0));
        var app = builder.Build();
        OtlpReceiver? receiver = null;
        app.MapPost("/v1/metrics", async (HttpContext context) =>
        {
            using var body = new MemoryStream();
            await context.Request.Body.CopyToAsync(body);
            var request = ExportMetricsServiceRequest.Parser.ParseFrom(body.ToArray());
            receiver!.Add(request);
            return Results.Bytes([], "application/x-protobuf");
        });
        await app.StartAsync();
        var port = new Uri(app.Urls.First()).Port;
        receiver = new OtlpReceiver(app, new Uri(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}")));
        return receiver;
    }

    /// <summary>Every metric received so far, oldest first.</summary>
    public IReadOnlyList<(string Scope, Metric Metric)> Metrics
    {
        get
        {
            lock (_metrics)
            {
                return [.. _metrics];
            }
        }
    }

    /// <summary>The last export of the metric named <paramref name="name"/>; null when none came.</summary>
    public Metric? Last(string name) => Metrics.LastOrDefault(m => m.Metric.Name == name).Metric;

    /// <summary>The attributes of a data point, as strings.</summary>
    public static IReadOnlyDictionary<string, string> Attributes(IEnumerable<KeyValue> attributes) =>
        attributes.ToDictionary(a => a.Key, a => a.Value.ValueCase switch
        {
            AnyValue.ValueOneofCase.StringValue => a.Value.StringValue,
            AnyValue.ValueOneofCase.IntValue => a.Value.IntValue.ToString(CultureInfo.InvariantCulture),
            AnyValue.ValueOneofCase.DoubleValue => a.Value.DoubleValue.ToString(CultureInfo.InvariantCulture),
            AnyValue.ValueOneofCase.BoolValue => a.Value.BoolValue ? "true" : "false",
            _ => "",
        });

    /// <summary>A number point's value, whichever way it was sent.</summary>
    public static double Value(NumberDataPoint point) => point.ValueCase == NumberDataPoint.ValueOneofCase.AsInt ? point.AsInt : point.AsDouble;

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }

    private void Add(ExportMetricsServiceRequest request)
    {
        lock (_metrics)
        {
            foreach (var scope in request.ResourceMetrics.SelectMany(r => r.ScopeMetrics))
            {
                _metrics.AddRange(scope.Metrics.Select(m => (scope.Scope?.Name ?? "", m)));
            }
        }
    }
}
