import onnx, numpy as np, torch, sys, json, os
from onnx import numpy_helper
from onnx.external_data_helper import convert_model_to_external_data
sys.argv=['x','../x/base','base']
src=open('export_attn_driver.py').read().split('whisper.model.MultiHeadAttention.use_sdpa')[0]
# record sd key -> (ct2 var, rows)
src=src.replace("def lin(dst,srcp,rows=None,bias=True):","REC={}\ndef lin(dst,srcp,rows=None,bias=True):\n    REC[dst+'.weight']=(srcp+'/weight',rows)\n    if bias: REC[dst+'.bias']=(srcp+'/bias',rows)")
src=src.replace("def ln(dst,srcp): ","def ln(dst,srcp):\n    REC[dst+'.weight']=(srcp+'/gamma',None); REC[dst+'.bias']=(srcp+'/beta',None)\n    ")
src=src.replace("sd['encoder.positional_embedding']=","REC['encoder.positional_embedding']=('encoder/position_encodings/encodings',None); REC['decoder.token_embedding.weight']=('decoder/embeddings/weight',None); REC['decoder.positional_embedding']=('decoder/position_encodings/encodings',None)\nsd['encoder.positional_embedding']=")
exec(src)
sd={k:v.detach().numpy() for k,v in m.state_dict().items() if v.layout==torch.strided}
os.makedirs('ext',exist_ok=True)
for part in ['encoder','decoder']:
    mo=onnx.load(f'base-{part}.onnx'); recipe=[]
    for t in mo.graph.initializer:
        a=numpy_helper.to_array(t); hit=None
        for k,v in sd.items():
            if v.shape==a.shape and np.array_equal(v,a): hit=(k,False);break
            if v.ndim==2 and v.T.shape==a.shape and np.array_equal(v.T,a): hit=(k,True);break
        assert hit, t.name
        # bias of a split key has none in CT2 for k: REC says bias absent -> key has no bias param in torch, fine
        ct2,rows=REC[hit[0]]
        recipe.append({'init':t.name,'ct2':ct2,'rows':rows,'transpose':hit[1],'shape':list(a.shape)})
    convert_model_to_external_data(mo, all_tensors_to_one_file=True, location=f'base-{part}.weights', size_threshold=0)
    onnx.save(mo, f'ext/base-{part}.onnx')
    # offsets
    mo2=onnx.load(f'ext/base-{part}.onnx', load_external_data=False)
    for r,t in zip(recipe, mo2.graph.initializer):
        d={e.key:e.value for e in t.external_data}; r['offset']=int(d.get('offset',0)); r['length']=int(d['length'])
    json.dump(recipe, open(f'ext/base-{part}.recipe.json','w'), indent=0)
    print(part, len(recipe), 'skeleton', os.path.getsize(f'ext/base-{part}.onnx'), 'weights', os.path.getsize(f'ext/base-{part}.weights'), 'transposed', sum(r['transpose'] for r in recipe), 'sliced', sum(r['rows'] is not None for r in recipe))
