using System.Runtime.Serialization;

namespace Harness.Rpc.Soap.Tests;

[DataContract(Namespace = TestService.Namespace)]
public sealed class ComputeRequest
{
    [DataMember(Name = "iterations")]
    public int Iterations { get; set; }
}

/// <summary>The sum, plus where the operation ran before and after its await (Task-based operations only await).</summary>
[DataContract(Namespace = TestService.Namespace)]
public sealed class ComputeResponse
{
    [DataMember(Name = "sum")]
    public long Sum { get; set; }

    [DataMember(Name = "threadBefore")]
    public int ThreadBefore { get; set; }

    [DataMember(Name = "threadAfter")]
    public int ThreadAfter { get; set; }

    [DataMember(Name = "contextBefore")]
    public string ContextBefore { get; set; } = "";

    [DataMember(Name = "contextAfter")]
    public string ContextAfter { get; set; } = "";

    [DataMember(Name = "poolThread")]
    public bool PoolThread { get; set; }
}

[DataContract(Namespace = TestService.Namespace)]
public sealed class EchoMessage
{
    [DataMember(Name = "text")]
    public string Text { get; set; } = "";
}

[DataContract(Namespace = TestService.Namespace)]
public sealed class FailRequest
{
    [DataMember(Name = "client")]
    public bool Client { get; set; }

    [DataMember(Name = "reason")]
    public string Reason { get; set; } = "";
}

/// <summary>What the one <c>SpinUntilAborted</c> call in flight saw; tests in the collection run one at a time.</summary>
internal static class AbortProbe
{
    public static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    public static TaskCompletionSource Started { get; private set; } = new();

    /// <summary>True when the operation stopped because its token was cancelled, false when it gave up at <see cref="Bound"/>.</summary>
    public static TaskCompletionSource<bool> Stopped { get; private set; } = new();

    public static void Reset()
    {
        Started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Stopped = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
    }
}

/// <summary>The sample contract the tests serve: a calculator in WCF's default namespace.</summary>
internal static class TestService
{
    public const string Namespace = "http://tempuri.org/";
    public const string Name = "Calculator";
    public const string CrashMessage = "boom: connection string Server=db;Password=hunter2";

    public static SoapContract CreateContract() => new SoapContract(Name, Namespace)
        .AddOperation<ComputeRequest, ComputeResponse>("Compute", request =>
        {
            ComputeResponse response = Observe(new ComputeResponse { Sum = Sum(request.Iterations) });
            response.ThreadAfter = response.ThreadBefore;
            response.ContextAfter = response.ContextBefore;
            return response;
        })
        .AddOperation<ComputeRequest, ComputeResponse>("ComputeAsync", async (request, cancellationToken) =>
        {
            ComputeResponse response = Observe(new ComputeResponse());
            // A timer completes the delay, so the continuation must be brought back by the captured context.
            await Task.Delay(15, cancellationToken);
            response.Sum = Sum(request.Iterations);
            response.ThreadAfter = Environment.CurrentManagedThreadId;
            response.ContextAfter = ContextName();
            return response;
        })
        .AddOperation<EchoMessage, EchoMessage>("Echo", request => new EchoMessage { Text = request.Text })
        .AddOperation<FailRequest, EchoMessage>("Fail", request =>
            throw new SoapFaultException(request.Client ? SoapFaultCode.Client : SoapFaultCode.Server, request.Reason))
        .AddOperation<FailRequest, EchoMessage>("FailAsync", async (request, cancellationToken) =>
        {
            await Task.Delay(1, cancellationToken);
            throw new SoapFaultException(request.Client ? SoapFaultCode.Client : SoapFaultCode.Server, request.Reason);
        })
        .AddOperation<EchoMessage, EchoMessage>("Crash", _ => throw new InvalidOperationException(CrashMessage))
        .AddOperation<EchoMessage, EchoMessage>("SpinUntilAborted", (request, cancellationToken) =>
        {
            // Synchronous, as a CPU-bound WCF operation; bounded so a broken token cannot hang the fixture.
            AbortProbe.Started.TrySetResult();
            var spinning = System.Diagnostics.Stopwatch.StartNew();
            while (!cancellationToken.IsCancellationRequested && spinning.Elapsed < AbortProbe.Bound)
            {
                Thread.SpinWait(1000);
            }

            AbortProbe.Stopped.TrySetResult(cancellationToken.IsCancellationRequested);
            cancellationToken.ThrowIfCancellationRequested();
            return request;
        });

    private static ComputeResponse Observe(ComputeResponse response)
    {
        response.ThreadBefore = Environment.CurrentManagedThreadId;
        response.ContextBefore = ContextName();
        response.PoolThread = Thread.CurrentThread.IsThreadPoolThread;
        return response;
    }

    private static string ContextName() => SynchronizationContext.Current switch
    {
        null => "none",
        DedicatedThreadSynchronizationContext dedicated => dedicated.Name,
        SynchronizationContext other => other.GetType().Name,
    };

    private static long Sum(int iterations)
    {
        long sum = 0;
        for (int i = 1; i <= iterations; i++)
        {
            sum += i;
        }

        return sum;
    }
}
