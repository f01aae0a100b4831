using System.Net;
using System.Net.Sockets;
using System.Text;
using Harness.Kubernetes.Tests.Tooling;

namespace Harness.Kubernetes.Tests;

/// <summary>
/// k8s/base/runner/wait-for-services.sh, the init container that holds the load until the services answer, run with
/// bash against loopback listeners this test opens.
/// </summary>
public sealed class WaitForServicesTests
{
    private static string Script => Path.Combine(Repository.K8s, "base", "runner", "wait-for-services.sh");

    [Fact]
    public async Task AllHealthy_ExitsZero_NamingEach()
    {
        // Arrange
        await using var a = HealthListener.Start(200);
        await using var b = HealthListener.Start(200);

        // Act
        var result = Wait(10, a.Target, b.Target);

        // Assert
        Assert.True(result.ExitCode == 0, result.StandardError);
        Assert.Contains($"{a.Target} is healthy", result.StandardOutput, StringComparison.Ordinal);
        Assert.Contains($"{b.Target} is healthy", result.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("GET /healthz ", a.FirstRequest, StringComparison.Ordinal);
    }

    [Fact]
    public async Task OneAnswering503_FailsWhenTheBoundRunsOut()
    {
        // Arrange
        await using var healthy = HealthListener.Start(200);
        await using var unhealthy = HealthListener.Start(503);

        // Act
        var result = Wait(3, healthy.Target, unhealthy.Target);

        // Assert
        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"error: {unhealthy.Target} did not answer /healthz with 200 within 3 s", result.StandardError, StringComparison.Ordinal);
    }

    [Fact]
    public void NothingListening_FailsWhenTheBoundRunsOut()
    {
        // Arrange: a port that was free a moment ago.
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var target = $"127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}";
        listener.Stop();

        // Act
        var result = Wait(2, target);

        // Assert
        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"{target} did not answer", result.StandardError, StringComparison.Ordinal);
    }

    private static ProcessResult Wait(int seconds, params string[] targets) =>
        ProcessRunner.Run("bash", [Script, .. targets], TimeSpan.FromSeconds(seconds + 30),
            environment: new Dictionary<string, string?> { ["WAIT_SECONDS"] = seconds.ToString(System.Globalization.CultureInfo.InvariantCulture) });

    /// <summary>Answers every connection on a loopback port with one status line, until disposed.</summary>
    private sealed class HealthListener : IAsyncDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly CancellationTokenSource _stop = new();
        private Task _loop = Task.CompletedTask;

        public string Target => $"127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}";

        public string FirstRequest { get; private set; } = "";

        public static HealthListener Start(int status)
        {
            var listener = new HealthListener();
            listener._listener.Start();
            listener._loop = listener.ServeAsync(status);
            return listener;
        }

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            _listener.Stop();
            await _loop.ContinueWith(_ => { }, TaskScheduler.Default);
            _stop.Dispose();
        }

        private async Task ServeAsync(int status)
        {
            while (!_stop.IsCancellationRequested)
            {
                using var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                try
                {
                    var stream = client.GetStream();
                    var buffer = new byte[1024];
                    var read = await stream.ReadAsync(buffer, _stop.Token);
                    if (FirstRequest.Length == 0)
                    {
                        FirstRequest = Encoding.ASCII.GetString(buffer, 0, read);
                    }

                    await stream.WriteAsync(Encoding.ASCII.GetBytes($"HTTP/1.0 {status} X\r\nContent-Length: 0\r\n\r\n"), _stop.Token);
                }
                catch (IOException)
                {
                    // The probe gave up on this connection (its own timeout); serve the next one.
                }
            }
        }
    }
}
