using System.Runtime.Serialization;

namespace Harness.Contracts.Soap;

// The SOAP messages, serialized by DataContractSerializer in the document/literal wrapped style WCF uses.

[DataContract(Namespace = HarnessContract.SoapNamespace)]
public sealed class ComputeRequest
{
    [DataMember(Name = "iterations", Order = 0)]
    public int Iterations { get; set; }
}

[DataContract(Namespace = HarnessContract.SoapNamespace)]
public sealed class ComputeResponse
{
    [DataMember(Order = 0)]
    public long Result { get; set; }

    [DataMember(Order = 1)]
    public int ThreadId { get; set; }

    [DataMember(Order = 2)]
    public double ElapsedMs { get; set; }
}

[DataContract(Namespace = HarnessContract.SoapNamespace)]
public sealed class CallThirdPartyRequest
{
    [DataMember(Name = "fanout", Order = 0)]
    public int Fanout { get; set; }

    [DataMember(Name = "delayMs", Order = 1)]
    public int DelayMs { get; set; }

    /// <summary>blocking | async | thread-sleep | task-wait | task-delay; empty means blocking.</summary>
    [DataMember(Name = "style", Order = 2)]
    public string? Style { get; set; }

    [DataMember(Name = "parallelism", Order = 3)]
    public int Parallelism { get; set; }
}

[DataContract(Namespace = HarnessContract.SoapNamespace)]
public sealed class CallThirdPartyResponse
{
    [DataMember(Order = 0)]
    public int Calls { get; set; }

    [DataMember(Order = 1)]
    public double ElapsedMs { get; set; }

    [DataMember(Order = 2)]
    public int ThreadId { get; set; }

    [DataMember(Order = 3)]
    public int DistinctThreads { get; set; }
}
