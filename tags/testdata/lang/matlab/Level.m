classdef Level < uint8
    % A stock level, with an event when it changes.
    enumeration
        Low (1)
        High (2)
    end
    events
        Changed
    end
end
