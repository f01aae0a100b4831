using System.Globalization;
using k8s.Models;

namespace Harness.KubeletStandIn.Probes;

internal enum ProbeKind
{
    Startup,
    Liveness,
    Readiness,
}

/// <summary>
/// A probe's timing with the API server's defaults filled in: initialDelaySeconds 0, periodSeconds 10,
/// timeoutSeconds 1, successThreshold 1, failureThreshold 3. Liveness and startup probes must have successThreshold
/// 1 (the API server refuses anything else), so <see cref="Validate"/> does too.
/// </summary>
internal sealed record ProbeSettings(ProbeKind Kind, TimeSpan InitialDelay, TimeSpan Period, TimeSpan Timeout, int SuccessThreshold, int FailureThreshold)
{
    public static ProbeSettings From(ProbeKind kind, V1Probe probe) => new(
        kind,
        TimeSpan.FromSeconds(Math.Max(0, probe.InitialDelaySeconds ?? 0)),
        TimeSpan.FromSeconds(Positive(probe.PeriodSeconds, 10)),
        TimeSpan.FromSeconds(Positive(probe.TimeoutSeconds, 1)),
        Positive(probe.SuccessThreshold, 1),
        Positive(probe.FailureThreshold, 3));

    /// <summary>What the API server would refuse in a probe, or null.</summary>
    public static string? Validate(ProbeKind kind, V1Probe probe)
    {
        var handlers = new object?[] { probe.HttpGet, probe.TcpSocket, probe.Grpc, probe.Exec }.Count(h => h is not null);
        if (handlers != 1)
        {
            return $"{kind} probe: exactly one of httpGet, tcpSocket, grpc, exec is needed (found {handlers})";
        }

        if (kind != ProbeKind.Readiness && probe.SuccessThreshold is { } s && s != 1)
        {
            return $"{kind} probe: successThreshold must be 1 (found {s})";
        }

        return (probe.PeriodSeconds, probe.TimeoutSeconds, probe.FailureThreshold) switch
        {
            ( < 1, _, _) => $"{kind} probe: periodSeconds must be 1 or more",
            (_, < 1, _) => $"{kind} probe: timeoutSeconds must be 1 or more",
            (_, _, < 1) => $"{kind} probe: failureThreshold must be 1 or more",
            _ => null,
        };
    }

    /// <summary>The container port a probe's <c>port</c> names: a number, or a name declared in the container's <c>ports</c>.</summary>
    public static int? ResolvePort(IntOrString? port, V1Container container)
    {
        var text = port?.Value;
        if (string.IsNullOrEmpty(text))
        {
            return null;
        }

        return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var number)
            ? number
            : container.Ports?.FirstOrDefault(p => p.Name == text)?.ContainerPort;
    }

    /// <summary>How long the probe gives a container before it acts: initial delay + period × (failureThreshold − 1) + timeout.</summary>
    public TimeSpan Patience => InitialDelay + (Period * (FailureThreshold - 1)) + Timeout;

    private static int Positive(int? value, int fallback) => value is > 0 ? value.Value : fallback;
}

/// <summary>
/// Consecutive results against the thresholds, as the kubelet's prober counts them: the state flips to failure
/// after failureThreshold failures in a row and to success after successThreshold successes in a row. Liveness and
/// startup start as success/unknown, readiness as failure (a pod is not ready until a probe says so).
/// </summary>
internal sealed class ProbeCounter(ProbeSettings settings)
{
    private int _successes;
    private int _failures;

    public bool? State { get; private set; } = settings.Kind == ProbeKind.Readiness ? false : null;

    /// <summary>Records one result; true when the state changed.</summary>
    public bool Record(bool success)
    {
        var before = State;
        if (success)
        {
            _failures = 0;
            if (++_successes >= settings.SuccessThreshold)
            {
                State = true;
            }
        }
        else
        {
            _successes = 0;
            if (++_failures >= settings.FailureThreshold)
            {
                State = false;
            }
        }

        return before != State;
    }
}
