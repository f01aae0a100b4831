using System.Runtime.Serialization;
using System.ServiceModel;

namespace Harness.Contracts.Soap;

// The SOAP messages in the document/literal wrapped style WCF uses. Each type is both a data contract (the
// service serializes it with DataContractSerializer under the wrapper element) and a wrapped message contract
// (the WCF client writes and reads the same elements); the two sets of names and orders must agree.

[DataContract(Namespace = HarnessContract.SoapNamespace)]
[MessageContract(IsWrapped = true, WrapperName = HarnessContract.Compute, WrapperNamespace = HarnessContract.SoapNamespace)]
public sealed class ComputeRequest
{
    [DataMember(Name = "iterations", Order = 0)]
    [MessageBodyMember(Name = "iterations", Namespace = HarnessContract.SoapNamespace, Order = 0)]
    public int Iterations { get; set; }
}

[DataContract(Namespace = HarnessContract.SoapNamespace)]
[MessageContract(IsWrapped = true, WrapperName = HarnessContract.Compute + "Response", WrapperNamespace = HarnessContract.SoapNamespace)]
public sealed class ComputeResponse
{
    [DataMember(Order = 0)]
    [MessageBodyMember(Namespace = HarnessContract.SoapNamespace, Order = 0)]
    public long Result { get; set; }

    [DataMember(Order = 1)]
    [MessageBodyMember(Namespace = HarnessContract.SoapNamespace, Order = 1)]
    public int ThreadId { get; set; }

    [DataMember(Order = 2)]
    [MessageBodyMember(Namespace = HarnessContract.SoapNamespace, Order = 2)]
    public double ElapsedMs { get; set; }
}

[DataContract(Namespace = HarnessContract.SoapNamespace)]
[MessageContract(IsWrapped = true, WrapperName = HarnessContract.CallThirdParty, WrapperNamespace = HarnessContract.SoapNamespace)]
public sealed class CallThirdPartyRequest
{
    [DataMember(Name = "fanout", Order = 0)]
    [MessageBodyMember(Name = "fanout", Namespace = HarnessContract.SoapNamespace, Order = 0)]
    public int Fanout { get; set; }

    [DataMember(Name = "delayMs", Order = 1)]
    [MessageBodyMember(Name = "delayMs", Namespace = HarnessContract.SoapNamespace, Order = 1)]
    public int DelayMs { get; set; }

    /// <summary>blocking | async | thread-sleep | task-wait | task-delay; empty means blocking.</summary>
    [DataMember(Name = "style", Order = 2)]
    [MessageBodyMember(Name = "style", Namespace = HarnessContract.SoapNamespace, Order = 2)]
    public string? Style { get; set; }

    [DataMember(Name = "parallelism", Order = 3)]
    [MessageBodyMember(Name = "parallelism", Namespace = HarnessContract.SoapNamespace, Order = 3)]
    public int Parallelism { get; set; }
}

[DataContract(Namespace = HarnessContract.SoapNamespace)]
[MessageContract(IsWrapped = true, WrapperName = HarnessContract.CallThirdParty + "Response", WrapperNamespace = HarnessContract.SoapNamespace)]
public sealed class CallThirdPartyResponse
{
    [DataMember(Order = 0)]
    [MessageBodyMember(Namespace = HarnessContract.SoapNamespace, Order = 0)]
    public int Calls { get; set; }

    [DataMember(Order = 1)]
    [MessageBodyMember(Namespace = HarnessContract.SoapNamespace, Order = 1)]
    public double ElapsedMs { get; set; }

    [DataMember(Order = 2)]
    [MessageBodyMember(Namespace = HarnessContract.SoapNamespace, Order = 2)]
    public int ThreadId { get; set; }

    [DataMember(Order = 3)]
    [MessageBodyMember(Namespace = HarnessContract.SoapNamespace, Order = 3)]
    public int DistinctThreads { get; set; }
}
